# SPDX-License-Identifier: GPL-2.0
#
# Not a check: run as `sh pinned-bw.sh CPU` (by pinned-deadline.sh here
# and by make test-system's allowed-cpus), from inside a deadline task
# pinned to CPU, while its share is booked.  Prints the share booked on
# CPU for tasks pinned to it (debugfs: dl_rq[CPU]'s .dl_pinned_bw, 2^20 =
# one CPU), or nothing where the kernel books none (6.12) or debugfs is
# not mounted.
sed -n "/^dl_rq\[$1\]:/,/^\$/p" /sys/kernel/debug/sched/debug 2>/dev/null |
	sed -n 's/.*\.dl_pinned_bw *: *\([0-9]*\)$/\1/p' | head -n 1
