// SPDX-License-Identifier: GPL-2.0
/*
 * sched8 DURATION_MS: a small periodic SCHED_DEADLINE task set for the
 * schedule picture (figure 8), traced with sched_switch by bench/guest.sh.
 * Tasks dl-T0..dl-T4 (runtime / period, deadline = period):
 *   3/10, 4/15, 6/20, 10/30 ms, each job burning 80 % of its runtime,
 *   and 8/40 ms whose jobs need 12 ms: the CBS throttles it when its
 *   runtime is spent and it goes on after the replenishment.
 * Total reservation 1.53 (two CPUs).  At each job start a task writes
 * "rel I RELEASE_NS DEADLINE_NS" and at its end "end I NS" (CLOCK_MONOTONIC,
 * the trace clock is set to mono) to /sys/kernel/tracing/trace_marker.
 */
#include "bench.h"

static const struct { int rt, per, work_pct; } set[] = {
	{ 3, 10, 80 }, { 4, 15, 80 }, { 6, 20, 80 }, { 10, 30, 80 }, { 8, 40, 150 },
};
#define N (int)(sizeof(set) / sizeof(set[0]))

static int mfd = -1;
static uint64_t t0, tend;

static void *run(void *arg)
{
	long i = (long)arg;
	uint64_t per = set[i].per * NS_MS, rt = set[i].rt * NS_MS, r;
	char buf[128], name[16];
	int n;

	snprintf(name, sizeof(name), "dl-T%ld", i);
	prctl(PR_SET_NAME, name);
	if (set_dl(0, rt, per, per))
		die("%s: sched_setattr: %s", name, strerror(errno));
	for (r = t0; r + per <= tend; r += per) {
		sleep_until(r);
		n = snprintf(buf, sizeof(buf), "rel %ld %llu %llu\n", i,
			     (unsigned long long)r, (unsigned long long)(r + per));
		if (write(mfd, buf, n) < 0)
			die("trace_marker: %s", strerror(errno));
		spin_cpu(rt * set[i].work_pct / 100);
		n = snprintf(buf, sizeof(buf), "end %ld %llu\n", i,
			     (unsigned long long)mono_ns());
		if (write(mfd, buf, n) < 0)
			die("trace_marker: %s", strerror(errno));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t h[N];
	long i;

	if (argc != 2)
		die("usage: sched8 DURATION_MS");
	mfd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
	if (mfd < 0)
		die("trace_marker: %s", strerror(errno));
	t0 = mono_ns() + 100 * NS_MS;
	tend = t0 + strtoull(argv[1], NULL, 10) * NS_MS;
	for (i = 0; i < N; i++)
		h[i] = start_thread(run, (void *)i);
	for (i = 0; i < N; i++)
		pthread_join(h[i], NULL);
	printf("t0_ns=%llu end_ns=%llu tasks=%d\n", (unsigned long long)t0,
	       (unsigned long long)tend, N);
	return 0;
}
