// SPDX-License-Identifier: GPL-2.0
/*
 * admit ITERS: the calling thread switches itself into SCHED_DEADLINE
 * (1 ms / 10 ms) and back to SCHED_OTHER ITERS times (figure 6): both
 * calls go through admission control (reserve, release).  Prints
 *   iters=N pairs_per_s=R ns_per_call=C
 * (guest time; one pair = one sched_setattr in + one out).
 */
#include "bench.h"

int main(int argc, char **argv)
{
	long n, i;
	uint64_t t0, t1;
	int r;

	if (argc != 2)
		die("usage: admit ITERS");
	n = atol(argv[1]);
	t0 = mono_ns();
	for (i = 0; i < n; i++) {
		if ((r = set_dl(0, NS_MS, 10 * NS_MS, 10 * NS_MS)))
			die("into SCHED_DEADLINE: %s", strerror(-r));
		if ((r = set_other(0)))
			die("out of SCHED_DEADLINE: %s", strerror(-r));
	}
	t1 = mono_ns();
	printf("iters=%ld pairs_per_s=%.0f ns_per_call=%.1f\n", n,
	       n * 1e9 / (double)(t1 - t0), (double)(t1 - t0) / (2.0 * n));
	return 0;
}
