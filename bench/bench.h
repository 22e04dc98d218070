/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the in-guest benchmark programs (bench/ C files): the
 * upstream struct sched_attr layout, sched_setattr (syscall 314), clocks,
 * CPU-time spinning, futexes.  Ideas taken from the selftests' dl_util.h.
 * Output convention: one result per line, "key=value key=value ...".
 */
#ifndef BENCH_H
#define BENCH_H
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#define NS_MS 1000000ULL
#define NS_S 1000000000ULL

struct sched_attr_v0 {		/* upstream layout, size 48 */
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

/* 0 or -errno; times in ns; tid 0 = the calling thread. */
static inline int set_dl(pid_t tid, uint64_t rt, uint64_t dl, uint64_t per)
{
	struct sched_attr_v0 a = { .size = sizeof(a), .sched_policy = SCHED_DEADLINE,
		.sched_runtime = rt, .sched_deadline = dl, .sched_period = per };
	return syscall(314, tid, &a, 0) ? -errno : 0;
}

static inline int set_other(pid_t tid)
{
	struct sched_attr_v0 a = { .size = sizeof(a), .sched_policy = SCHED_OTHER };
	return syscall(314, tid, &a, 0) ? -errno : 0;
}

static inline int set_fifo(pid_t tid, int prio)
{
	struct sched_attr_v0 a = { .size = sizeof(a), .sched_policy = SCHED_FIFO,
		.sched_priority = prio };
	return syscall(314, tid, &a, 0) ? -errno : 0;
}

static inline uint64_t clk_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * NS_S + ts.tv_nsec;
}
#define mono_ns() clk_ns(CLOCK_MONOTONIC)
#define tcpu_ns() clk_ns(CLOCK_THREAD_CPUTIME_ID)
#define pcpu_ns() clk_ns(CLOCK_PROCESS_CPUTIME_ID)

static inline void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / NS_S, .tv_nsec = t % NS_S };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Burn @ns of this thread's own CPU time. */
static inline void spin_cpu(uint64_t ns)
{
	uint64_t end = tcpu_ns() + ns;

	while (tcpu_ns() < end)
		;
}

static inline void fwait(int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static inline void fwake(int *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

#define die(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)

static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Quantile q (0..1) of a sorted array (nearest rank). */
static inline uint64_t quant(const uint64_t *v, size_t n, double q)
{
	size_t i = (size_t)(q * n);

	if (!n)
		return 0;
	return v[i >= n ? n - 1 : i];
}

/* A thread with a small stack (the scaling test makes a thousand). */
static inline pthread_t start_thread(void *(*fn)(void *), void *arg)
{
	pthread_attr_t at;
	pthread_t t;

	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	if (pthread_create(&t, &at, fn, arg))
		die("pthread_create failed");
	pthread_attr_destroy(&at);
	return t;
}

/* se.nr_migrations of the calling thread, -1 if it cannot be read. */
static inline int64_t nr_migrations(void)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/thread-self/sched", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.nr_migrations", 16)) {
			char *colon = strchr(line, ':');

			if (colon)
				v = strtoll(colon + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

#endif
