// SPDX-License-Identifier: GPL-2.0
/*
 * backout-check - checks a kernel built from patch 0001 alone
 * ("sched: back out the in-tree SCHED_DEADLINE class").
 *
 * That prefix of the series has no deadline class and no
 * sched_setattr()/sched_getattr(), so this program asserts:
 *   - SCHED_FIFO, SCHED_RR and SCHED_NORMAL can be set with
 *     sched_setscheduler() and read back with sched_getscheduler()
 *     (and the RT priority with sched_getparam());
 *   - syscalls 314 and 315 (x86_64 sched_setattr/sched_getattr)
 *     return -1 with errno ENOSYS;
 *   - sched_setscheduler(0, 6, ...) (policy 6 was SCHED_DEADLINE)
 *     returns -1 with errno EINVAL.
 *
 * These are expectations of that prefix only: once the series adds the
 * class back, 314/315 and policy 6 work again.
 *
 * Output is KTAP ("TAP version 13", "1..N", "ok N - ..."); the exit
 * status is 0 when every test passed, 1 otherwise.  Must run as root
 * (CAP_SYS_NICE) on x86_64.  Build: gcc -static -O2 -o backout-check
 * backout-check.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR_TESTS	8

#ifndef SCHED_NORMAL
#define SCHED_NORMAL	SCHED_OTHER
#endif
#define POLICY_6	6	/* was SCHED_DEADLINE */
#define NR_SETATTR	314	/* x86_64 */
#define NR_GETATTR	315	/* x86_64 */

static int test_nr;
static int failures;

static void result(int ok, const char *desc)
{
	test_nr++;
	if (!ok)
		failures++;
	printf("%sok %d - %s\n", ok ? "" : "not ", test_nr, desc);
	fflush(stdout);
}

/* Set @policy at @prio on the calling thread and read it back. */
static void check_policy(int policy, int prio, const char *desc)
{
	struct sched_param sp = { .sched_priority = prio };
	struct sched_param got = { .sched_priority = -1 };
	int ret, pol;

	ret = sched_setscheduler(0, policy, &sp);
	if (ret) {
		printf("# sched_setscheduler(%d, %d): %s\n", policy, prio,
		       strerror(errno));
		result(0, desc);
		return;
	}
	pol = sched_getscheduler(0);
	ret = sched_getparam(0, &got);
	if (pol != policy || ret || got.sched_priority != prio)
		printf("# got policy %d prio %d (ret %d), want %d/%d\n",
		       pol, got.sched_priority, ret, policy, prio);
	result(pol == policy && !ret && got.sched_priority == prio, desc);
}

/* A raw syscall that must not exist in this prefix. */
static void check_enosys(long nr, const char *desc)
{
	char buf[64];
	long ret;

	memset(buf, 0, sizeof(buf));
	errno = 0;
	/* Plausible arguments: pid 0, a zeroed buffer, its size, flags 0. */
	ret = syscall(nr, 0, buf, sizeof(buf), 0);
	if (ret != -1 || errno != ENOSYS)
		printf("# syscall(%ld) = %ld, errno %d (%s)\n", nr, ret, errno,
		       strerror(errno));
	result(ret == -1 && errno == ENOSYS, desc);
}

int main(void)
{
	struct sched_param sp = { .sched_priority = 0 };
	int ret;

	printf("TAP version 13\n");
	printf("1..%d\n", NR_TESTS);

	check_policy(SCHED_FIFO, 10, "SCHED_FIFO prio 10 set and read back");
	check_policy(SCHED_RR, 20, "SCHED_RR prio 20 set and read back");
	check_policy(SCHED_NORMAL, 0, "SCHED_NORMAL set and read back");
	check_policy(SCHED_FIFO, 99, "SCHED_FIFO prio 99 set and read back");
	check_policy(SCHED_NORMAL, 0, "back to SCHED_NORMAL");

	check_enosys(NR_SETATTR, "syscall 314 (sched_setattr) returns ENOSYS");
	check_enosys(NR_GETATTR, "syscall 315 (sched_getattr) returns ENOSYS");

	errno = 0;
	ret = sched_setscheduler(0, POLICY_6, &sp);
	if (ret != -1 || errno != EINVAL)
		printf("# sched_setscheduler(0, 6) = %d, errno %d (%s)\n", ret,
		       errno, strerror(errno));
	/* the policy must be unchanged */
	result(ret == -1 && errno == EINVAL && sched_getscheduler(0) == SCHED_NORMAL,
	       "sched_setscheduler(0, 6, ...) returns EINVAL");

	printf("# %d of %d failed\n", failures, NR_TESTS);
	return failures ? 1 : 0;
}
