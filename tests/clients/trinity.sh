#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Client check: Debian's trinity, restricted to the scheduler system calls,
# for a bounded number of calls and time, as an unprivileged user (uid
# 65534 through su; trinity refuses root without --dangerous, and as root it
# would hand kernel threads random policies by pid).
#  1. trinity runs and reports the calls it made;
#  2. the kernel's taint flags did not change (a WARN, BUG or oops taints);
#  3. afterwards chrt -d still runs a command under SCHED_DEADLINE.
# Splats on the console fail the boot through scripts/verdict as well.
# TRINITY_CALLS (default 100000) and TRINITY_SECONDS (default 60) bound it;
# TRINITY_SEED repeats a run (the seed is printed).

TRINITY=${TRINITY:-/usr/bin/trinity}
CALLS=${TRINITY_CALLS:-100000}
SECONDS_MAX=${TRINITY_SECONDS:-60}
SEED=${TRINITY_SEED:-$(( $(date +%s) % 100000 + $$ ))}
. "$(dirname "$0")/ktap.sh"

echo "KTAP version 1"
echo "1..3"
if [ ! -x "$TRINITY" ]; then
	echo "# $TRINITY missing: scripts/setup installs trinity"
	echo "1..0 # SKIP trinity not in the initramfs"
	exit 4
fi

W=/tmp/trinity.$$
mkdir -p $W && chmod 777 $W
taint0=$(cat /proc/sys/kernel/tainted)
echo "# trinity, $CALLS calls at most, ${SECONDS_MAX}s at most, seed $SEED, as uid 65534"
# SIGINT at the time cap: trinity stops its children and prints its totals.
su -s /bin/sh nobody -c "cd $W && exec timeout -s INT -k 30 $SECONDS_MAX $TRINITY \
	-q -l off -C 4 -N $CALLS -s $SEED -a 64 \
	--disable-fds=sockets,pipes,perf,epoll,eventfd,pseudo,timerfd,testfile,memfd,drm \
	-c sched_setattr -c sched_getattr -c sched_setscheduler -c sched_getscheduler \
	-c sched_setparam -c sched_getparam -c sched_setaffinity -c sched_getaffinity \
	-c sched_yield -c sched_rr_get_interval -c sched_get_priority_max \
	-c sched_get_priority_min" </dev/null >$W/out 2>&1
rc=$?
tail -n 25 $W/out | sed 's/^/# /'
ran=$(sed -n 's/.*Ran \([0-9][0-9]*\) syscalls.*/\1/p' $W/out | tail -n 1)
# Stopped at the time cap (124, or 130 from SIGINT) is fine if it ran.
if { [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -eq 130 ]; } &&
   [ -n "$ran" ] && [ "$ran" -gt 0 ]; then
	echo "# trinity: $ran calls"
	ok "trinity_sched_syscalls"
else
	not_ok "trinity_sched_syscalls # exit status $rc, calls '${ran:-none}'"
fi

taint1=$(cat /proc/sys/kernel/tainted)
if [ "$taint0" = "$taint1" ]; then
	ok "kernel_not_tainted"
else
	not_ok "kernel_not_tainted # tainted $taint0 -> $taint1"
fi

# Any trinity child left behind is killed before the last check.
pkill_pids=$(ps -o pid,user,comm 2>/dev/null | awk '$3 == "trinity" { print $1 }')
[ -z "$pkill_pids" ] || kill -9 $pkill_pids 2>/dev/null
out=$(chrt -d --sched-runtime 5000000 --sched-deadline 30000000 \
	--sched-period 30000000 0 sh -c 'exec chrt -p $$' 2>&1)
echo "$out" | sed 's/^/# /'
if echo "$out" | grep -q "policy: SCHED_DEADLINE"; then
	ok "deadline_class_still_works"
else
	not_ok "deadline_class_still_works"
fi
rm -rf $W
echo "# totals: pass:$((n - fails)) fail:$fails xfail:0 xpass:0 skip:0 error:0"
[ $fails -eq 0 ]
