// SPDX-License-Identifier: GPL-2.0
/*
 * wakelat THREADS DURATION_MS UTIL_PERCENT: wake-up latency of periodic
 * SCHED_DEADLINE threads, measured the way rt-tests' cyclicdeadline does
 * (figure 5).  Thread i has period = deadline = 10 ms + i * 5 ms (like
 * `cyclicdeadline -i 10000 -s 5000`) and runtime = UTIL_PERCENT % of its
 * period / THREADS; each job sleeps (clock_nanosleep, absolute) until
 * its release, latency = time it runs again - release, then burns half
 * its runtime.  Prints over all samples of all threads:
 *   threads=T samples=N median_ns=M p99_ns=P max_ns=X
 */
#include "bench.h"

#define MAXS 20000

struct th {
	uint64_t per, rt, t0, end;
	uint64_t *lat;
	size_t n;
	int err;
};

static void *run(void *arg)
{
	struct th *t = arg;
	uint64_t r, now;

	if (set_dl(0, t->rt, t->per, t->per)) {
		t->err = errno;
		return NULL;
	}
	for (r = t->t0; r < t->end && t->n < MAXS; r += t->per) {
		sleep_until(r);
		now = mono_ns();
		t->lat[t->n++] = now - r;
		spin_cpu(t->rt / 2);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct th ts[16];
	pthread_t h[16];
	uint64_t *all, t0;
	size_t tot = 0;
	int n, i, pct;

	if (argc != 4)
		die("usage: wakelat THREADS DURATION_MS UTIL_PERCENT");
	n = atoi(argv[1]);
	pct = atoi(argv[3]);
	if (n < 1 || n > 16)
		die("1..16 threads");
	all = calloc((size_t)n * MAXS, sizeof(*all));
	t0 = mono_ns() + 100 * NS_MS;
	for (i = 0; i < n; i++) {
		ts[i] = (struct th){ .per = (10 + 5 * i) * NS_MS, .t0 = t0,
			.end = t0 + strtoull(argv[2], NULL, 10) * NS_MS, .lat = all + (size_t)i * MAXS };
		ts[i].rt = ts[i].per * pct / 100 / n;
		h[i] = start_thread(run, &ts[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(h[i], NULL);
		if (ts[i].err)
			die("thread %d: sched_setattr: %s", i, strerror(ts[i].err));
		memmove(all + tot, ts[i].lat, ts[i].n * sizeof(*all));
		tot += ts[i].n;
	}
	qsort(all, tot, sizeof(*all), cmp_u64);
	printf("threads=%d samples=%zu median_ns=%llu p99_ns=%llu max_ns=%llu\n", n, tot,
	       (unsigned long long)quant(all, tot, 0.5), (unsigned long long)quant(all, tot, 0.99),
	       (unsigned long long)(tot ? all[tot - 1] : 0));
	return 0;
}
