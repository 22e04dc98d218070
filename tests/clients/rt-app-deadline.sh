#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Client check: rt-app, unchanged, runs three SCHED_DEADLINE threads
# (2 ms every 20/30/40 ms, each using 1 ms) for three seconds; it must
# exit 0, all three threads must be SCHED_DEADLINE while it runs, and each
# thread must have logged its periods.
# Runs inside the guest under busybox sh; prints KTAP.

RTAPP=${RTAPP:-$(command -v rt-app)}
CHRT=${CHRT:-/usr/bin/chrt}
[ -x "$CHRT" ] || CHRT=$(command -v chrt)
DIR=/tmp/rt-app-deadline
. "$(dirname "$0")/ktap.sh"

echo "KTAP version 1"
echo "1..3"

rm -rf $DIR
mkdir -p $DIR
cat > $DIR/dl3.json <<'JSON'
{
	"tasks" : {
		"dl0" : {
			"policy" : "SCHED_DEADLINE",
			"dl-runtime" : 2000, "dl-deadline" : 20000, "dl-period" : 20000,
			"runtime" : 1000,
			"timer" : { "ref" : "t0", "period" : 20000 }
		},
		"dl1" : {
			"policy" : "SCHED_DEADLINE",
			"dl-runtime" : 2000, "dl-deadline" : 30000, "dl-period" : 30000,
			"runtime" : 1000,
			"timer" : { "ref" : "t1", "period" : 30000 }
		},
		"dl2" : {
			"policy" : "SCHED_DEADLINE",
			"dl-runtime" : 2000, "dl-deadline" : 40000, "dl-period" : 40000,
			"runtime" : 1000,
			"timer" : { "ref" : "t2", "period" : 40000 }
		}
	},
	"global" : {
		"duration" : 3,
		"calibration" : 100,
		"default_policy" : "SCHED_OTHER",
		"logdir" : "/tmp/rt-app-deadline",
		"log_basename" : "dl3",
		"lock_pages" : false,
		"ftrace" : false,
		"gnuplot" : false
	}
}
JSON

start=$(cut -d. -f1 /proc/uptime)
$RTAPP $DIR/dl3.json > $DIR/out.txt 2>&1 &
pid=$!

# While it runs, count its SCHED_DEADLINE threads (the most seen at once);
# poll, since how long rt-app takes to start its threads varies.
dl=0
i=0
while [ $i -lt 50 ] && [ $dl -lt 3 ]; do
	# Stop once rt-app is gone or a zombie.
	state=$(sed 's/.*) \(.\).*/\1/' /proc/$pid/stat 2>/dev/null)
	[ -n "$state" ] && [ "$state" != Z ] || break
	i=$((i + 1))
	now=0
	for t in /proc/$pid/task/*; do
		tid=${t##*/}
		if $CHRT -p $tid 2>/dev/null | grep -q "policy: SCHED_DEADLINE"; then
			now=$((now + 1))
		fi
	done
	[ $now -gt $dl ] && dl=$now
	sleep 0.2
done
wait $pid
rc=$?
end=$(cut -d. -f1 /proc/uptime)
sed 's/^/# /' $DIR/out.txt | tail -n 20

if [ $rc -eq 0 ] && [ $((end - start)) -ge 2 ]; then
	ok "rt_app_runs_to_completion"
else
	not_ok "rt_app_runs_to_completion # rc=$rc, $((end - start)) s"
fi

echo "# $dl SCHED_DEADLINE threads seen"
if [ $dl -eq 3 ]; then
	ok "rt_app_threads_are_deadline"
else
	not_ok "rt_app_threads_are_deadline # $dl of 3"
fi

logs=0
for f in $DIR/dl3-dl0*.log $DIR/dl3-dl1*.log $DIR/dl3-dl2*.log; do
	# A header line plus one line per period.
	[ -f "$f" ] && [ "$(wc -l < "$f")" -gt 10 ] && logs=$((logs + 1))
done
ls $DIR | sed 's/^/# /'
if [ $logs -eq 3 ]; then
	ok "rt_app_threads_ran_periods"
else
	not_ok "rt_app_threads_ran_periods # $logs of 3 logs"
fi

echo "# totals: pass:$((n - fails)) fail:$fails xfail:0 xpass:0 skip:0 error:0"
[ $fails -eq 0 ]
