#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Client check: util-linux chrt, unchanged, drives SCHED_DEADLINE.
#  1. chrt -d ... 0 CMD runs CMD under SCHED_DEADLINE (CMD asks for its own policy);
#  2. chrt -p PID reports the policy and the parameters of a running deadline task;
#  3. chrt -d with runtime > deadline is refused and runs nothing.
# Runs inside the guest under busybox sh; prints KTAP.

CHRT=${CHRT:-/usr/bin/chrt}
[ -x "$CHRT" ] || CHRT=$(command -v chrt)
RT=10000000
DL=30000000
PER=30000000
. "$(dirname "$0")/ktap.sh"

echo "KTAP version 1"
echo "1..3"
echo "# using $CHRT ($($CHRT --version 2>&1 | head -n 1))"

# 1. The command itself sees SCHED_DEADLINE.  A deadline task may not
# fork, so the shell execs chrt -p on its own pid.
out=$($CHRT -d --sched-runtime $RT --sched-deadline $DL --sched-period $PER 0 \
	sh -c "exec $CHRT -p \$\$" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc -eq 0 ] && echo "$out" | grep -q "policy: SCHED_DEADLINE" &&
   echo "$out" | grep -q "$RT/$DL/$PER"; then
	ok "chrt_d_runs_command_under_deadline"
else
	not_ok "chrt_d_runs_command_under_deadline # rc=$rc"
fi

# 2. chrt -p on another task.
$CHRT -d --sched-runtime $RT --sched-deadline $DL --sched-period $PER 0 sleep 5 &
pid=$!
out=""
i=0
while [ $i -lt 20 ]; do
	out=$($CHRT -p $pid 2>&1)
	echo "$out" | grep -q SCHED_DEADLINE && break
	sleep 0.1
	i=$((i + 1))
done
echo "$out" | sed 's/^/# /'
if echo "$out" | grep -q "policy: SCHED_DEADLINE" &&
   echo "$out" | grep -q "$RT/$DL/$PER"; then
	ok "chrt_p_reports_deadline"
else
	not_ok "chrt_p_reports_deadline"
fi
kill $pid 2>/dev/null
wait $pid 2>/dev/null

# 3. Invalid parameters: refused, the command never runs.
marker=/tmp/chrt-deadline.$$
rm -f $marker
$CHRT -d --sched-runtime $DL --sched-deadline $RT --sched-period $PER 0 \
	touch $marker >/dev/null 2>&1
rc=$?
if [ $rc -ne 0 ] && [ ! -e $marker ]; then
	ok "chrt_d_invalid_refused"
else
	not_ok "chrt_d_invalid_refused # rc=$rc"
fi
rm -f $marker

echo "# totals: pass:$((n - fails)) fail:$fails xfail:0 xpass:0 skip:0 error:0"
[ $fails -eq 0 ]
