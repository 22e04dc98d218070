#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Client check: rt-tests' cyclicdeadline, unchanged, runs two deadline
# threads for three seconds (interval 10 ms, step 5 ms: the default 1 ms
# interval is too short under emulation) and must exit 0 without errors.
#
# cyclicdeadline reserves 80 % of the CPUs (60 % per thread when there are
# at least as many CPUs as threads), more than the default deadline share
# of 40 % per CPU (sched_dl_runtime_us = 400000), so where that knob exists
# the check raises it to sched_rt_runtime_us for the run and restores it.
# Before it starts its threads, cyclicdeadline times one job's worth of
# its busy loop and exits if that took longer than the runtime; that
# calibration is not scheduling and is at the mercy of emulation noise,
# so only that failure is retried (three attempts).
# Runs inside the guest under busybox sh; prints KTAP.

CYCLIC=${CYCLIC:-$(command -v cyclicdeadline)}
OUT=/tmp/cyclicdeadline.out
n=0
fails=0

echo "KTAP version 1"
echo "1..1"

KNOB=/proc/sys/kernel/sched_dl_runtime_us
saved=""
if [ -w $KNOB ]; then
	saved=$(cat $KNOB)
	cat /proc/sys/kernel/sched_rt_runtime_us > $KNOB
	echo "# sched_dl_runtime_us $saved -> $(cat $KNOB) for the run"
fi

try=1
while :; do
	timeout 60 $CYCLIC -t 2 -i 10000 -s 5000 -D 3 -q > $OUT 2>&1
	rc=$?
	grep -q "Failed to perform task within runtime" $OUT || break
	[ $try -ge 3 ] && break
	echo "# calibration attempt $try: $(grep 'Failed to perform' $OUT)"
	try=$((try + 1))
done

[ -n "$saved" ] && echo $saved > $KNOB
sed 's/^/# /' $OUT | tail -n 20
n=1
if [ $rc -eq 0 ] && ! grep -qiE "error|fail|invalid|not permitted|busy" $OUT &&
   grep -q "T: *0" $OUT && grep -q "T: *1" $OUT; then
	echo "ok 1 cyclicdeadline_runs"
else
	fails=1
	echo "not ok 1 cyclicdeadline_runs # rc=$rc"
fi

echo "# totals: pass:$((n - fails)) fail:$fails xfail:0 xpass:0 skip:0 error:0"
[ $fails -eq 0 ]
