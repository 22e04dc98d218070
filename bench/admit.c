// SPDX-License-Identifier: GPL-2.0
/*
 * admit [global|pinned] ITERS: the calling thread switches itself into
 * SCHED_DEADLINE (1 ms / 10 ms) and back to SCHED_OTHER ITERS times
 * (figures 6 and 10: global, the default; figure 11: pinned, the thread's
 * mask first set to CPU 0 alone): both calls go through admission
 * control (reserve, release).  Prints
 *   mode=M iters=N pairs_per_s=R ns_per_call=C
 * One pair = one sched_setattr in + one out; only the time spent in the
 * calls counts (CLOCK_MONOTONIC around each batch).
 *
 * admit affinity ITERS (figure 11): the thread, on CPU 0 and in
 * SCHED_DEADLINE (1 ms / 10 ms) with its whole mask, pins itself to CPU 0
 * (sched_setaffinity), then ITERS times changes its mask to all its CPUs
 * and back to CPU 0, one pair per period.  Prints
 *   mode=affinity iters=N ns_per_call=C ns_to_all=A ns_to_one=O
 *   migrations=X burst_pairs=B
 * It runs on CPU 0 throughout, so no call has to move it (X, the
 * se.nr_migrations it gained meanwhile, says so; -1: unknown): the calls
 * time the change of mask and its admission (R2 for CPU 0), not a
 * migration.  One pair per period, because a pinned task that leaves its
 * CPU in the middle of a job leaves its share owed there until the job's
 * 0-lag time, and the shares owed to a CPU add up: toggling without a
 * pause would fill CPU 0's pinned books with the thread's own owed shares.
 * B measures that afterwards: the pairs toggled back to back, within one
 * job, before CPU 0 refuses the pin (EBUSY), at most BURST.
 *
 * A kernel that refuses the first call (pristine 6.12 refuses a deadline
 * task whose mask is one CPU of several: sched_setattr EPERM,
 * sched_setaffinity EBUSY) gives "mode=M refused=ERRNO" and exit status
 * 0; a refusal after the first call is a failure.
 *
 * In batches of BATCH pairs, with a sleep of more than a period between
 * them: coming back into the class before its job is over, a task
 * resumes that job on our kernel (the CBS keeps a policy change from
 * refilling the budget), so a thread that kept switching would use its
 * budget up and be throttled until the next period, and the figure would
 * time the throttling (6.12 hands out a fresh budget at every return).
 * After the sleep each batch starts a new job on both kernels and uses a
 * small part of it.  (A sleeping peer switched by another thread would
 * avoid the budget, but 6.12 refuses it with EBUSY on its second entry:
 * it still counts the bandwidth of the first.)
 */
#include "bench.h"

#define BATCH 10
#define BURST 50

static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case EPERM: return "EPERM";
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	case EAGAIN: return "EAGAIN";
	}
	snprintf(buf, sizeof(buf), "%d", e);
	return buf;
}

static int set_mask(const cpu_set_t *m)
{
	return sched_setaffinity(0, sizeof(*m), m) ? -errno : 0;
}

static void setattr_pairs(const char *mode, long n)
{
	uint64_t t = 0, spent = 0;
	long i;
	int r;

	for (i = 0; i < n; i++) {
		if (i % BATCH == 0) {
			if (i)
				spent += mono_ns() - t;
			usleep(11000);
			t = mono_ns();
		}
		if ((r = set_dl(0, NS_MS, 10 * NS_MS, 10 * NS_MS))) {
			if (!i) {
				printf("mode=%s refused=%s\n", mode, errname(-r));
				return;
			}
			die("admit %s: into SCHED_DEADLINE, pair %ld: %s", mode, i, strerror(-r));
		}
		if ((r = set_other(0)))
			die("admit %s: out of SCHED_DEADLINE, pair %ld: %s", mode, i, strerror(-r));
	}
	spent += mono_ns() - t;
	printf("mode=%s iters=%ld pairs_per_s=%.0f ns_per_call=%.1f\n", mode, n,
	       n * 1e9 / (double)spent, (double)spent / (2.0 * n));
}

static void affinity_pairs(long n, const cpu_set_t *all, const cpu_set_t *one)
{
	uint64_t to_all = 0, to_one = 0, t;
	long long m0, m1;
	long i;
	int r;

	if ((r = set_dl(0, NS_MS, 10 * NS_MS, 10 * NS_MS)))
		die("admit affinity: into SCHED_DEADLINE (whole mask): %s", strerror(-r));
	if ((r = set_mask(one))) {
		printf("mode=affinity refused=%s\n", errname(-r));
		set_other(0);
		return;
	}
	m0 = nr_migrations();
	for (i = 0; i < n; i++) {
		usleep(11000);
		t = mono_ns();
		if ((r = set_mask(all)))
			die("admit affinity: CPU 0 -> all CPUs, pair %ld: %s", i, strerror(-r));
		to_all += mono_ns() - t;
		t = mono_ns();
		if ((r = set_mask(one)))
			die("admit affinity: all CPUs -> CPU 0, pair %ld: %s", i, strerror(-r));
		to_one += mono_ns() - t;
	}
	m1 = nr_migrations();
	/* back to back within one job, until CPU 0 refuses */
	usleep(11000);
	for (i = 0; i < BURST; i++) {
		if ((r = set_mask(all)))
			die("admit affinity: burst, CPU 0 -> all CPUs, pair %ld: %s", i, strerror(-r));
		if ((r = set_mask(one))) {
			if (r != -EBUSY)
				die("admit affinity: burst, all CPUs -> CPU 0, pair %ld: %s",
				    i, strerror(-r));
			break;
		}
	}
	printf("mode=affinity iters=%ld ns_per_call=%.1f ns_to_all=%.1f ns_to_one=%.1f "
	       "migrations=%lld burst_pairs=%ld\n", n, (to_all + to_one) / (2.0 * n),
	       to_all / (double)n, to_one / (double)n, m0 < 0 || m1 < 0 ? -1 : m1 - m0, i);
	if ((r = set_other(0)))
		die("admit affinity: out of SCHED_DEADLINE: %s", strerror(-r));
}

int main(int argc, char **argv)
{
	const char *mode = argc == 3 ? argv[1] : "global";
	cpu_set_t all, one;
	long n;
	int r;

	if (argc < 2 || argc > 3 || (strcmp(mode, "global") && strcmp(mode, "pinned") &&
				     strcmp(mode, "affinity")))
		die("usage: admit [global|pinned|affinity] ITERS");
	n = atol(argv[argc - 1]);
	if (n < 1)
		die("admit: ITERS must be at least 1, not %s", argv[argc - 1]);
	if (sched_getaffinity(0, sizeof(all), &all))
		die("admit: sched_getaffinity: %s", strerror(errno));
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (strcmp(mode, "global")) {
		if (!CPU_ISSET(0, &all) || CPU_COUNT(&all) < 2)
			die("admit %s: needs CPU 0 and another CPU in its mask (%d CPUs)",
			    mode, CPU_COUNT(&all));
		/* onto CPU 0 while SCHED_OTHER: no call below moves it */
		if ((r = set_mask(&one)))
			die("admit %s: sched_setaffinity to CPU 0 (SCHED_OTHER): %s",
			    mode, strerror(-r));
	}
	if (!strcmp(mode, "affinity")) {
		if ((r = set_mask(&all)))
			die("admit affinity: sched_setaffinity back to all CPUs (SCHED_OTHER): %s",
			    strerror(-r));
		affinity_pairs(n, &all, &one);
	} else {
		setattr_pairs(mode, n);
	}
	return 0;
}
