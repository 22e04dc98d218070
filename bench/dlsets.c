// SPDX-License-Identifier: GPL-2.0
/*
 * dlsets FILE DURATION_MS WORK_PERCENT: runs each periodic task set of
 * FILE (written by bench/uunifast.py) for DURATION_MS and counts the jobs
 * that finish after their absolute deadline (figures 1, 2, 9 and 11).
 *
 * FILE: "set ID U N" followed by N lines "RUNTIME_NS PERIOD_NS [CPU]".
 * Every task is a thread with SCHED_DEADLINE (runtime, deadline = period,
 * period); one with a CPU >= 0 (figure 11) first sets its affinity to that
 * one CPU (sched_setaffinity), then asks for SCHED_DEADLINE: a pinned
 * task, which pristine 6.12 refuses (EPERM); CPU -1 or no CPU column keeps
 * the whole mask (a global task).  All are released together at t0; job
 * k is released at t0 + k * period (clock_nanosleep), burns WORK_PERCENT %
 * of (runtime - 0.2 ms) in CPU time (the 0.2 ms is left for the kernel's
 * own work for the job, tens to hundreds of microseconds under TCG) and
 * is late if it ends after t0 + (k + 1) * period.  Jobs not started by
 * the end of the run are counted as missed (tardiness: at least the
 * time since their deadline), and a task still stuck 1 s after the end
 * is made SCHED_OTHER and gives up its job (counted as missed), so a run
 * never overruns by more than about a second and tardiness is censored
 * there.
 * With DLSETS_MARK set, every job is also written to the trace marker
 * (see mark_fd).
 * Prints per set:
 *   set=ID u=U n=N jobs=J misses=M maxtard_ns=T rejected=R
 *   pinned=P rejected_pinned=RP jobs_pinned=JP misses_pinned=MP
 *   maxtard_pinned_ns=TP maxtard_global_ns=TG migrations=X
 *   migrations_pinned=XP
 * (R = threads whose sched_setattr failed, RP those of them pinned: the
 * kernel admitted the whole set when R = 0; the set's other numbers still
 * count the admitted tasks.  P = tasks with a CPU; the _pinned numbers are
 * theirs, maxtard_global_ns that of the others.  X = migrations of the
 * admitted tasks from their admission to their last job, the difference
 * of se.nr_migrations in /proc/thread-self/sched (CONFIG_SCHED_DEBUG);
 * -1 when that file cannot be read.)
 */
#include "bench.h"

#define MARGIN (200 * 1000ULL)
#define HARD_NS (1000 * NS_MS)

/*
 * DLSETS_MARK=1 (figure 9): each job, once done, writes
 * "dlj TID RELEASE_NS DEADLINE_NS END_NS RUNTIME_NS PERIOD_NS"
 * (CLOCK_MONOTONIC) to the trace marker, so that the host can tell from
 * the trace which job each thread was running or waiting for, and replay
 * its server's budget.
 */
static int mark_fd = -1;

struct task {
	uint64_t rt, per, t0, end, work;
	int rejected, tid, done, cpu;
	const char *set;
	uint64_t jobs, misses, maxtard;
	int64_t migr;		/* migrations while admitted, -1: unknown */
};

/* What a set's tasks (or its pinned ones) add up to. */
struct sums {
	uint64_t jobs, misses, maxtard;
	int64_t migr;		/* -1 once a task's count is unknown */
	int rejected;
};

static void sums_add(struct sums *s, const struct task *t)
{
	s->jobs += t->jobs;
	s->misses += t->misses;
	s->rejected += t->rejected;
	if (t->maxtard > s->maxtard)
		s->maxtard = t->maxtard;
	if (!t->rejected && s->migr >= 0)
		s->migr = t->migr < 0 ? -1 : s->migr + t->migr;
}

static void *run_task(void *arg)
{
	struct task *t = arg;
	uint64_t k, r, c;
	int64_t m0;

	t->tid = gettid();
	if (t->cpu >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(t->cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			die("dlsets: set %s, task %llu/%llu ns: sched_setaffinity to CPU %d: %s",
			    t->set, (unsigned long long)t->rt, (unsigned long long)t->per,
			    t->cpu, strerror(errno));
	}
	if (set_dl(0, t->rt, t->per, t->per)) {
		t->rejected = 1;
		__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	m0 = nr_migrations();
	for (k = 0;; k++) {
		r = t->t0 + k * t->per;
		if (r + t->per > t->end)
			break;
		c = mono_ns();
		if (c > t->end) {
			/* far behind (under TCG the host's steal is charged
			 * as runtime): the jobs not started by the end of
			 * the run count as missed, by at least this much */
			for (; r + t->per <= t->end; r += t->per) {
				t->jobs++;
				t->misses++;
				if (c - r - t->per > t->maxtard)
					t->maxtard = c - r - t->per;
			}
			break;
		}
		sleep_until(r);
		c = tcpu_ns() + t->work;
		while (tcpu_ns() < c && mono_ns() < t->end + HARD_NS)
			;
		c = mono_ns();
		t->jobs++;
		if (mark_fd >= 0) {
			/* snprintf + write: no stdio buffer, no malloc */
			char mark[128];
			int len = snprintf(mark, sizeof(mark), "dlj %d %llu %llu %llu %llu %llu\n",
					   t->tid, (unsigned long long)r,
					   (unsigned long long)(r + t->per),
					   (unsigned long long)c, (unsigned long long)t->rt,
					   (unsigned long long)t->per);

			/* a trace missing marks would misplace jobs: stop */
			if (write(mark_fd, mark, len) != len)
				die("DLSETS_MARK: trace marker write failed");
		}
		if (c > r + t->per) {
			t->misses++;
			if (c - r - t->per > t->maxtard)
				t->maxtard = c - r - t->per;
		}
		/* given up (see main()): the next turn counts the jobs left */
		if (c >= t->end + HARD_NS)
			continue;
	}
	t->migr = m0 >= 0 ? nr_migrations() : -1;
	if (t->migr >= 0)
		t->migr -= m0;
	set_other(0);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int main(int argc, char **argv)
{
	char line[256], id[64];
	double u;
	int n, i, work_pct;
	uint64_t dur;
	FILE *f;

	if (argc != 4)
		die("usage: dlsets FILE DURATION_MS WORK_PERCENT");
	f = fopen(argv[1], "r");
	if (!f)
		die("cannot open %s", argv[1]);
	dur = strtoull(argv[2], NULL, 10) * NS_MS;
	work_pct = atoi(argv[3]);
	if (getenv("DLSETS_MARK")) {
		mark_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
		if (mark_fd < 0)
			die("DLSETS_MARK: cannot open the trace marker");
	}
	while (fgets(line, sizeof(line), f)) {
		struct task ts[64];
		pthread_t th[64];
		struct sums all = { 0 }, pinned = { 0 };
		uint64_t maxtard_g = 0, t0;
		int npinned = 0;

		if (sscanf(line, "set %63s %lf %d", id, &u, &n) != 3)
			continue;
		if (n < 1 || n > 64)
			die("bad set %s", id);
		memset(ts, 0, sizeof(ts));
		for (i = 0; i < n; i++) {
			unsigned long long rt, per;
			int cpu = -1;

			if (!fgets(line, sizeof(line), f) ||
			    sscanf(line, "%llu %llu %d", &rt, &per, &cpu) < 2)
				die("short set %s", id);
			if (cpu < -1 || cpu >= CPU_SETSIZE)
				die("set %s, task %d: bad CPU %d", id, i, cpu);
			ts[i].rt = rt;
			ts[i].per = per;
			ts[i].cpu = cpu;
			ts[i].set = id;
			npinned += cpu >= 0;
		}
		/* the previous set's bandwidth may stay reserved up to a
		 * period (upstream releases it at the 0-lag time) */
		usleep(250000);
		t0 = mono_ns() + 200 * NS_MS;
		for (i = 0; i < n; i++) {
			ts[i].t0 = t0;
			ts[i].end = t0 + dur;
			ts[i].work = ts[i].rt > MARGIN ?
				(ts[i].rt - MARGIN) * work_pct / 100 : 0;
			th[i] = start_thread(run_task, &ts[i]);
		}
		/* A task still throttled 1 s after the end (paying a CBS
		 * debt) is switched to SCHED_OTHER, ends its job at once and
		 * counts it as missed: tardiness is censored at about 1 s
		 * after the end of the run, which bounds the run's length. */
		for (;;) {
			int left = 0;

			for (i = 0; i < n; i++)
				left += !__atomic_load_n(&ts[i].done, __ATOMIC_ACQUIRE);
			if (!left || mono_ns() > t0 + dur + HARD_NS + 10 * NS_MS)
				break;
			usleep(20000);
		}
		for (i = 0; i < n; i++)
			if (!__atomic_load_n(&ts[i].done, __ATOMIC_ACQUIRE) && ts[i].tid)
				set_other(ts[i].tid);
		for (i = 0; i < n; i++) {
			pthread_join(th[i], NULL);
			if (getenv("DLSETS_VERBOSE"))
				printf("# task %d rt=%llu per=%llu cpu=%d jobs=%llu misses=%llu maxtard=%llu rej=%d migr=%lld\n",
				       i, (unsigned long long)ts[i].rt, (unsigned long long)ts[i].per,
				       ts[i].cpu,
				       (unsigned long long)ts[i].jobs, (unsigned long long)ts[i].misses,
				       (unsigned long long)ts[i].maxtard, ts[i].rejected,
				       (long long)ts[i].migr);
			sums_add(&all, &ts[i]);
			if (ts[i].cpu >= 0)
				sums_add(&pinned, &ts[i]);
			else if (ts[i].maxtard > maxtard_g)
				maxtard_g = ts[i].maxtard;
		}
		printf("set=%s u=%.3f n=%d jobs=%llu misses=%llu maxtard_ns=%llu rejected=%d "
		       "pinned=%d rejected_pinned=%d jobs_pinned=%llu misses_pinned=%llu "
		       "maxtard_pinned_ns=%llu maxtard_global_ns=%llu migrations=%lld "
		       "migrations_pinned=%lld\n",
		       id, u, n, (unsigned long long)all.jobs,
		       (unsigned long long)all.misses,
		       (unsigned long long)all.maxtard, all.rejected, npinned,
		       pinned.rejected, (unsigned long long)pinned.jobs,
		       (unsigned long long)pinned.misses,
		       (unsigned long long)pinned.maxtard,
		       (unsigned long long)maxtard_g, (long long)all.migr,
		       (long long)pinned.migr);
		fflush(stdout);
	}
	return 0;
}
