#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Client check: the unchanged clients pin deadline tasks to one CPU, the
# way users pin FIFO threads (sched-deadline.rst 6.6, "Pinned tasks"):
#  1. taskset -c N chrt -d ... CMD: CMD runs under SCHED_DEADLINE on CPU N
#     only, its share booked on N (debugfs .dl_pinned_bw);
#  2. chrt -d ... then taskset -p -c N PID: a running deadline task is
#     pinned, then given back every CPU;
#  3. rt-app, a SCHED_DEADLINE thread with "cpus": [N]: it runs its
#     periods as a deadline task on N only.
# N is the last online CPU.  On a kernel without the series' class (6.12)
# each step checks the refusal 6.12 gives (EPERM, EBUSY, no pinned
# deadline thread) and reports it as an expected difference (a skip).
# Runs inside the guest under busybox sh; prints KTAP.

CHRT=${CHRT:-/usr/bin/chrt}
[ -x "$CHRT" ] || CHRT=$(command -v chrt)
TASKSET=${TASKSET:-/usr/bin/taskset}
[ -x "$TASKSET" ] || TASKSET=$(command -v taskset)
RTAPP=${RTAPP:-$(command -v rt-app)}
DBG=/sys/kernel/debug/sched/debug
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=/tmp/pinned-deadline
RT=2000000
PER=20000000
. "$HERE/ktap.sh"

echo "KTAP version 1"
echo "1..3"
cpus=$(grep -c '^processor' /proc/cpuinfo)
if [ "$cpus" -lt 2 ]; then
	for t in taskset_chrt_runs_pinned taskset_p_pins_running_task rt_app_cpus_pins_thread; do
		n=$((n + 1))
		echo "ok $n $t # SKIP needs 2 CPUs, $cpus online"
	done
	echo "# totals: pass:0 fail:0 xfail:0 xpass:0 skip:3 error:0"
	exit 0
fi
N=$((cpus - 1))
series=0
[ -e /proc/sys/kernel/sched_dl_runtime_us ] && series=1
DIFF="expected difference: 6.12 refuses a deadline task on one CPU"
[ -r $DBG ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
echo "# $cpus CPUs, pinning to CPU $N; series class: $series"

# 6.12's refusal, checked by the caller: an expected difference, counted
# as a skip, never as a pass.
skip() {
	n=$((n + 1))
	skips=$((skips + 1))
	echo "ok $n $1 # SKIP $DIFF ($2)"
}
skips=0

# 1. taskset then chrt.  Reset-on-fork lets the task's shell run the
# readers; they report on the shell ($$), the deadline task.
out=$($TASKSET -c $N $CHRT -R -d -T $RT -D $PER -P $PER 0 sh -c \
	"$CHRT -p \$\$; $TASKSET -cp \$\$; echo pinned share: \$(sh $HERE/pinned-bw.sh $N)" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
pinned=$(echo "$out" | sed -n 's/^pinned share: //p')
if [ $series -eq 0 ]; then
	if [ $rc -ne 0 ] && echo "$out" | grep -q "Operation not permitted"; then
		skip taskset_chrt_runs_pinned "sched_setattr EPERM"
	else
		not_ok "taskset_chrt_runs_pinned # 6.12 did not refuse with EPERM: rc=$rc"
	fi
elif [ $rc -eq 0 ] && echo "$out" | grep -q "policy: SCHED_DEADLINE" &&
     echo "$out" | grep -q "affinity list: $N\$" && [ "${pinned:-0}" -gt 0 ]; then
	ok "taskset_chrt_runs_pinned"
else
	not_ok "taskset_chrt_runs_pinned # rc=$rc, CPU $N's .dl_pinned_bw '${pinned}'"
fi

# 2. chrt, then taskset -p on the running task: pinned, then global again.
$CHRT -d -T $RT -D $PER -P $PER 0 sleep 4 &
pid=$!
i=0
while [ $i -lt 20 ] && ! $CHRT -p $pid 2>/dev/null | grep -q SCHED_DEADLINE; do
	sleep 0.1
	i=$((i + 1))
done
pin=$($TASKSET -p -c $N $pid 2>&1)
pin_rc=$?
mask=$($TASKSET -cp $pid 2>&1)
pol=$($CHRT -p $pid 2>&1)
back=$($TASKSET -p -c 0-$N $pid 2>&1)
back_rc=$?
echo "$pin; $mask; $pol; $back" | sed 's/^/# /'
kill $pid 2>/dev/null
wait $pid 2>/dev/null
if [ $series -eq 0 ]; then
	if [ $pin_rc -ne 0 ] && echo "$pin" | grep -q "Device or resource busy"; then
		skip taskset_p_pins_running_task "sched_setaffinity EBUSY"
	else
		not_ok "taskset_p_pins_running_task # 6.12 did not refuse with EBUSY: rc=$pin_rc"
	fi
elif [ $pin_rc -eq 0 ] && [ $back_rc -eq 0 ] && echo "$pol" | grep -q SCHED_DEADLINE &&
     echo "$mask" | grep -q "affinity list: $N\$"; then
	ok "taskset_p_pins_running_task"
else
	not_ok "taskset_p_pins_running_task # pin rc=$pin_rc, back rc=$back_rc"
fi

# 3. rt-app with "cpus": one deadline thread on CPU N for 2 s.
rm -rf $DIR
mkdir -p $DIR
cat > $DIR/pin.json <<JSON
{
	"tasks" : {
		"pin" : {
			"policy" : "SCHED_DEADLINE",
			"dl-runtime" : 2000, "dl-deadline" : 20000, "dl-period" : 20000,
			"cpus" : [ $N ],
			"runtime" : 1000,
			"timer" : { "ref" : "t0", "period" : 20000 }
		}
	},
	"global" : {
		"duration" : 2,
		"calibration" : 100,
		"default_policy" : "SCHED_OTHER",
		"logdir" : "$DIR",
		"log_basename" : "pin",
		"lock_pages" : false,
		"ftrace" : false,
		"gnuplot" : false
	}
}
JSON
$RTAPP $DIR/pin.json > $DIR/out.txt 2>&1 &
pid=$!
# Poll its threads: one is SCHED_DEADLINE with the mask {N}.  Once it
# has run on N (field 39 of stat; asleep since its mask was set, it keeps
# the CPU it slept on until it wakes), the kernel's count of its
# migrations (se.nr_migrations) must not grow: a pinned task never moves.
# A sample that shows another CPU without a migration is printed, not
# judged (the stat read is not atomic with the others).
seen=0 off=0 landed=-1 i=0
while [ $i -lt 40 ]; do
	state=$(sed 's/.*) \(.\).*/\1/' /proc/$pid/stat 2>/dev/null)
	[ -n "$state" ] && [ "$state" != Z ] || break
	i=$((i + 1))
	for t in /proc/$pid/task/*; do
		tid=${t##*/}
		$CHRT -p $tid 2>/dev/null | grep -q "policy: SCHED_DEADLINE" || continue
		$TASKSET -cp $tid 2>/dev/null | grep -q "affinity list: $N\$" || continue
		cpu=$(sed 's/.*) //' $t/stat 2>/dev/null | cut -d' ' -f37)
		migr=$(sed -n 's/^se.nr_migrations *: *//p' $t/sched 2>/dev/null)
		[ -n "$migr" ] || migr=0
		if [ $landed -lt 0 ]; then
			[ "$cpu" = "$N" ] && landed=$migr
			continue
		fi
		seen=$((seen + 1))
		if [ "$migr" -gt "$landed" ]; then
			off=$((off + 1))
			echo "# moved: on CPU $cpu, se.nr_migrations $landed -> $migr"
		elif [ "$cpu" != "$N" ]; then
			echo "# sample on CPU $cpu, no migration (se.nr_migrations $migr)"
		fi
	done
	sleep 0.1
done
wait $pid
rc=$?
sed 's/^/# /' $DIR/out.txt | tail -n 10
lines=$(cat $DIR/pin-pin*.log 2>/dev/null | wc -l)
echo "# rt-app status $rc, pinned deadline thread on CPU $N then sampled $seen times, moved in $off, $lines log lines"
if [ $series -eq 0 ]; then
	if [ $landed -lt 0 ] && [ $seen -eq 0 ]; then
		skip rt_app_cpus_pins_thread "no pinned deadline thread"
	else
		not_ok "rt_app_cpus_pins_thread # 6.12 ran a pinned deadline thread"
	fi
elif [ $rc -eq 0 ] && [ $landed -ge 0 ] && [ $off -eq 0 ] && [ "$lines" -gt 10 ]; then
	ok "rt_app_cpus_pins_thread"
else
	not_ok "rt_app_cpus_pins_thread # status $rc, on CPU $N: $([ $landed -ge 0 ] && echo yes || echo never), moved $off, $lines log lines"
fi

echo "# totals: pass:$((n - fails - skips)) fail:$fails xfail:0 xpass:0 skip:$skips error:0"
[ $fails -eq 0 ]
