// SPDX-License-Identifier: GPL-2.0
/*
 * admit ITERS: the calling thread switches itself into SCHED_DEADLINE
 * (1 ms / 10 ms) and back to SCHED_OTHER ITERS times (figures 6 and 10):
 * both calls go through admission control (reserve, release).  Prints
 *   iters=N pairs_per_s=R ns_per_call=C
 * One pair = one sched_setattr in + one out; only the time spent in the
 * calls counts (CLOCK_MONOTONIC around each batch).
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

int main(int argc, char **argv)
{
	uint64_t t = 0, spent = 0;
	long n, i;
	int r;

	if (argc != 2)
		die("usage: admit ITERS");
	n = atol(argv[1]);
	for (i = 0; i < n; i++) {
		if (i % BATCH == 0) {
			if (i)
				spent += mono_ns() - t;
			usleep(11000);
			t = mono_ns();
		}
		if ((r = set_dl(0, NS_MS, 10 * NS_MS, 10 * NS_MS)))
			die("into SCHED_DEADLINE: %s", strerror(-r));
		if ((r = set_other(0)))
			die("out of SCHED_DEADLINE: %s", strerror(-r));
	}
	spent += mono_ns() - t;
	printf("iters=%ld pairs_per_s=%.0f ns_per_call=%.1f\n", n,
	       n * 1e9 / (double)spent, (double)spent / (2.0 * n));
	return 0;
}
