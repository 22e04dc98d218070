// SPDX-License-Identifier: GPL-2.0
/*
 * isolate hog DURATION_MS: one SCHED_DEADLINE thread (10 ms / 100 ms)
 *   spins next to two spinning SCHED_OTHER threads; prints its share of
 *   the CPU (CPU time / elapsed): "case=hog share=S expected=0.100".
 * isolate fair DURATION_MS NDL RT_MS PER_MS: NDL spinning SCHED_DEADLINE
 *   threads (RT_MS / PER_MS each) next to one spinning SCHED_OTHER
 *   thread; prints the fair thread's share:
 *   "case=fair share=S expected=1-NDL*RT/PER".
 * One CPU (figure 7).  Spinning = reading the clock in a loop; the
 * window starts 200 ms after the threads are made.
 */
#include "bench.h"

struct sp {
	int dl;
	uint64_t rt, per, start, end, cpu;
	int err;
};

static void *spin(void *arg)
{
	struct sp *s = arg;

	if (s->dl && set_dl(0, s->rt, s->per, s->per)) {
		s->err = errno;
		return NULL;
	}
	/* a spinner only sees the clock while it runs: the CPU time
	 * between its first look past start and its first look past end
	 * is its share of [start, end) */
	while (mono_ns() < s->start)
		;
	s->cpu = tcpu_ns();
	while (mono_ns() < s->end)
		;
	s->cpu = tcpu_ns() - s->cpu;
	return NULL;
}

int main(int argc, char **argv)
{
	struct sp s[16];
	pthread_t h[16];
	uint64_t dur, t0;
	int n, i, hog;

	if (argc < 3)
		die("usage: isolate hog MS | isolate fair MS NDL RT_MS PER_MS");
	hog = !strcmp(argv[1], "hog");
	dur = strtoull(argv[2], NULL, 10) * NS_MS;
	memset(s, 0, sizeof(s));
	if (hog) {
		n = 3;
		s[0] = (struct sp){ .dl = 1, .rt = 10 * NS_MS, .per = 100 * NS_MS };
	} else {
		if (argc != 6)
			die("usage: isolate fair MS NDL RT_MS PER_MS");
		n = atoi(argv[3]) + 1;
		if (n > 16)
			die("at most 15 deadline threads");
		for (i = 1; i < n; i++)
			s[i] = (struct sp){ .dl = 1, .rt = atoll(argv[4]) * NS_MS,
					    .per = atoll(argv[5]) * NS_MS };
	}
	/* measure after 200 ms, when every thread has set its policy */
	t0 = mono_ns() + 200 * NS_MS;
	for (i = 0; i < n; i++) {
		s[i].start = t0;
		s[i].end = t0 + dur;
		h[i] = start_thread(spin, &s[i]);
	}
	for (i = 0; i < n; i++)
		pthread_join(h[i], NULL);
	for (i = 0; i < n; i++)
		if (s[i].err)
			die("sched_setattr: %s", strerror(s[i].err));
	if (hog)
		printf("case=hog share=%.4f expected=0.100 fair_share=%.4f\n",
		       (double)s[0].cpu / (double)dur,
		       (double)(s[1].cpu + s[2].cpu) / (double)dur);
	else
		printf("case=fair share=%.4f expected=%.3f\n",
		       (double)s[0].cpu / (double)dur,
		       1.0 - (n - 1) * (double)s[1].rt / (double)s[1].per);
	return 0;
}
