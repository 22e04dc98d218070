# SPDX-License-Identifier: GPL-2.0
#
# KTAP result lines for the client checks; sourced, not run (it is not
# executable, so the test plan does not take it for a check).
# ok/not_ok number the results; $fails counts the failures.
n=0
fails=0

ok() {
	n=$((n + 1))
	echo "ok $n $1"
}

not_ok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n $1"
}
