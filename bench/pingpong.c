// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong switch dl|fifo ITERS: two threads hand a futex token back and
 * forth ITERS times on one CPU (figure 3).  Both are SCHED_DEADLINE
 * (20 ms / 50 ms each) or SCHED_FIFO 50.  Prints
 *   policy=P iters=N cpu_ns_per_switch=C wall_ns_per_switch=W
 * C = CPU time of the process (both threads) / switches: throttled or
 * idle time is not in it.
 *
 * pingpong scale NMAX ROUNDS ITERS: figure 4.  Thread A (the main thread,
 * DL 40 ms / 100 ms) and B (DL 20 ms / 100 ms) ping-pong, while N
 * "background" DL threads (0.5 ms / 4 s, N = 16, 32, ... NMAX) are made
 * runnable by one FUTEX_WAKE; their deadlines are seconds away, so they
 * stay queued and never run while A or B is runnable.  Per round:
 *   wake: A's elapsed time for the FUTEX_WAKE of all N / N
 *         (futex wake-up + enqueue + preemption check of one task)
 *   switch: ITERS round trips A<->B with the N queued / (2 ITERS)
 *         (dequeue + pick + enqueue with N others in the queue)
 * then A sleeps 200 ms, during which the background threads run a few
 * microseconds each and block again.  Prints per N the median of ROUNDS:
 *   n=N wake_ns=W switch_ns=S
 */
#include "bench.h"

static int token;		/* 0: A's turn, 1: B's turn */
static int stop;

static void pp_side(int me)
{
	for (;;) {
		while (__atomic_load_n(&token, __ATOMIC_ACQUIRE) != me) {
			if (__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
				return;
			fwait(&token, !me);
		}
		if (__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
			return;
		__atomic_store_n(&token, !me, __ATOMIC_RELEASE);
		fwake(&token, 1);
	}
}

/* A's side of ITERS round trips (A starts with the token). */
static void pp_run(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		__atomic_store_n(&token, 1, __ATOMIC_RELEASE);
		fwake(&token, 1);
		while (__atomic_load_n(&token, __ATOMIC_ACQUIRE) != 0)
			fwait(&token, 1);
	}
}

static int pol_dl;
static uint64_t b_rt = 20 * NS_MS, b_per = 50 * NS_MS;

static void *b_thread(void *arg)
{
	(void)arg;
	if (pol_dl ? set_dl(0, b_rt, b_per, b_per) : set_fifo(0, 50))
		die("B: sched_setattr: %s", strerror(errno));
	pp_side(1);
	return NULL;
}

static void b_stop(pthread_t b)
{
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&token, 1, __ATOMIC_RELEASE);
	fwake(&token, 1);
	pthread_join(b, NULL);
}

static int do_switch(const char *pol, long n)
{
	uint64_t c0, w0, c1, w1;
	pthread_t b;
	int r;

	pol_dl = !strcmp(pol, "dl");
	b = start_thread(b_thread, NULL);	/* a DL task cannot fork: B first */
	r = pol_dl ? set_dl(0, 20 * NS_MS, 50 * NS_MS, 50 * NS_MS) : set_fifo(0, 50);
	if (r)
		die("A: sched_setattr: %s", strerror(-r));
	pp_run(100);		/* warm up, B has set its policy */
	c0 = pcpu_ns();
	w0 = mono_ns();
	pp_run(n);
	c1 = pcpu_ns();
	w1 = mono_ns();
	b_stop(b);
	printf("policy=%s iters=%ld cpu_ns_per_switch=%.1f wall_ns_per_switch=%.1f\n",
	       pol, n, (double)(c1 - c0) / (2.0 * n), (double)(w1 - w0) / (2.0 * n));
	return 0;
}

/* ---- scaling ---- */
static int gen;

static void *bg_thread(void *arg)
{
	(void)arg;
	if (set_dl(0, NS_MS / 2, 4 * NS_S, 4 * NS_S))
		die("background: sched_setattr: %s", strerror(errno));
	for (;;) {
		int g = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);

		fwait(&gen, g);
	}
	return NULL;
}

static int do_scale(int nmax, int rounds, long n)
{
	uint64_t wake[64], sw[64], t0, t1, t2;
	int nbg = 0, want, r, i;
	pthread_t b;

	if (rounds > 64)
		rounds = 64;
	pol_dl = 1;
	b_rt = 20 * NS_MS;
	b_per = 100 * NS_MS;
	b = start_thread(b_thread, NULL);
	for (want = 16; want <= nmax; want *= 2) {
		/* a DL task cannot clone: A creates threads as a normal task */
		set_other(0);
		usleep(200000);	/* A's bandwidth is released at its 0-lag time */
		while (nbg < want) {
			start_thread(bg_thread, NULL);
			nbg++;
		}
		if ((r = set_dl(0, 40 * NS_MS, 100 * NS_MS, 100 * NS_MS)))
			die("A: sched_setattr: %s", strerror(-r));
		pp_run(100);
		usleep(200000);	/* all background threads block */
		for (i = 0; i < rounds; i++) {
			t0 = mono_ns();
			__atomic_add_fetch(&gen, 1, __ATOMIC_RELEASE);
			fwake(&gen, INT_MAX);
			t1 = mono_ns();
			pp_run(n);
			t2 = mono_ns();
			wake[i] = (t1 - t0) / want;
			sw[i] = (t2 - t1) / (2 * n);
			usleep(200000);
		}
		qsort(wake, rounds, sizeof(wake[0]), cmp_u64);
		qsort(sw, rounds, sizeof(sw[0]), cmp_u64);
		printf("n=%d wake_ns=%llu switch_ns=%llu\n", want,
		       (unsigned long long)wake[rounds / 2], (unsigned long long)sw[rounds / 2]);
		fflush(stdout);
	}
	b_stop(b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "switch"))
		return do_switch(argv[2], atol(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "scale"))
		return do_scale(atoi(argv[2]), atoi(argv[3]), atol(argv[4]));
	die("usage: pingpong switch dl|fifo ITERS | pingpong scale NMAX ROUNDS ITERS");
}
