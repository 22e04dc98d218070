# shellcheck shell=bash
# Common definitions for the project's scripts.  Sourced, not executed.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROG=${PROG:-$(basename "$0")}

# Paths (all overridable from the environment; relative paths are taken
# relative to the project root).
abspath() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$ROOT/$1" ;; esac; }
TREE=$(abspath "${TREE:-build/linux}")               # series work tree (git)
UPSTREAM_SRC=$(abspath "${UPSTREAM_SRC:-build/linux-source-6.12}")  # pristine
PREFIX_TREE=$(abspath "${PREFIX_TREE:-build/prefix}") # worktree for prefixes
# Guest architecture: ARCH=x86_64 (the default) or ARCH=arm64 (QEMU's
# virt machine; cross-built with aarch64-linux-gnu-).  Kbuild reads ARCH
# from the environment too, so the scripts keep it in DLTEST_ARCH
# (exported: the scripts they start see it) and take ARCH out of the
# environment: x86_64 kernels build exactly as before (Kbuild's own
# default), arm64 ones get ARCH=arm64 on their make command line.
DLTEST_ARCH=${ARCH:-${DLTEST_ARCH:-x86_64}}
case $DLTEST_ARCH in
x86_64|x86) DLTEST_ARCH=x86_64 ;;
arm64|aarch64) DLTEST_ARCH=arm64 ;;
*) printf '%s: error: ARCH must be x86_64 (the default) or arm64, not "%s"\n' "$PROG" "$DLTEST_ARCH" >&2; exit 1 ;;
esac
export DLTEST_ARCH
unset ARCH
# ARCH_SUFFIX: appended to the per-kernel names of arm64's builds and
# results (build/obj/series-arm64, latest-series-arm64-test); empty for x86.
if [ "$DLTEST_ARCH" = arm64 ]; then ARCH_SUFFIX=-arm64; else ARCH_SUFFIX=; fi
CROSS_COMPILE_ARM64=aarch64-linux-gnu-
# KBUILD_ARCH: what every make of a kernel tree gets for the guest's
# architecture (none for x86_64: the host's, as these builds always were);
# KERNEL_IMAGE: the image it boots, under the O= dir.
if [ "$DLTEST_ARCH" = arm64 ]; then
	KBUILD_ARCH=(ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE_ARM64")
	KERNEL_IMAGE=arch/arm64/boot/Image
else
	KBUILD_ARCH=()
	KERNEL_IMAGE=arch/x86/boot/bzImage
fi
# arm64: the guest userspace unpacked from Debian's arm64 packages by
# scripts/setup (busybox, chrt, rt-app, ... and their libraries).
ARM64_ROOT=$(abspath "${ARM64_ROOT:-build/arm64-root}")
OBJ_ROOT=$(abspath "${OBJ_ROOT:-build/obj}")
# Debian's kernel configurations (scripts/setup): <debian arch>/config.*.xz
DEBIAN_CONFIG_DIR=$(abspath "${DEBIAN_CONFIG_DIR:-build/debian-config}")
LOG_DIR=$(abspath "${LOG_DIR:-build/logs}")
RESULTS_ROOT=$(abspath "${RESULTS_ROOT:-build/results}")
GUEST_DIR=$(abspath "${GUEST_DIR:-build/guest$ARCH_SUFFIX}")    # initramfs staging + selftest install
export GUEST_DIR
PATCHES=$(abspath "${PATCHES:-patches}")
JOBS=${JOBS:-2}

BASE_PKG=linux-source-6.12
BASE_TARBALL=${BASE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
BASE_VERSION=$(cat "$ROOT/config/base.version")
BASE_SHA256=$(cut -d' ' -f1 "$ROOT/config/base.sha256")
# The five upstream files the base-preparation step deletes (clean room:
# the series never carries upstream's deadline implementation text).
BASE_DELETED_FILES="kernel/sched/deadline.c kernel/sched/cpudeadline.c
kernel/sched/cpudeadline.h include/linux/sched/deadline.h
Documentation/scheduler/sched-deadline.rst"
# Identity and date used for the deterministic base commit and for the
# commits `git am` makes (so the same patches give the same tree hashes).
TREE_NAME="Seed ab62ed4c maintainers"
TREE_EMAIL="maintainers@users.noreply.a-seed-ab62ed4c.example"
TREE_DATE="2000-01-01T00:00:00Z"

say()  { printf '%s: %s\n' "$PROG" "$*"; }
warn() { printf '%s: WARNING: %s\n' "$PROG" "$*" >&2; }
die()  { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }

# Under `set -e` a failing command ends a script without a word.  Every
# script that sources this file instead names the command, its status and
# its line, so that no failure is silent.  Expected failures are tested
# explicitly (`if`, `||`), which the ERR trap does not see.
on_unexpected_error() {
	local rc=$1 line=$2 cmd=$3
	printf '%s: error: `%s` failed with status %d (%s line %s).\n' \
		"$PROG" "$cmd" "$rc" "$0" "$line" >&2
	printf '%s:        This is a bug in the script or a missing prerequisite;' "$PROG" >&2
	printf ' see the logs under %s, and run scripts/setup if a tool is missing.\n' \
		"${LOG_DIR:-build/logs}" >&2
}
case $- in
*e*) set -E; trap 'on_unexpected_error $? $LINENO "$BASH_COMMAND"' ERR ;;
esac

# need_tools CMD...: stop with what to do when a tool setup installs is
# missing (a machine where scripts/setup has not run, or not to the end).
need_tools() {
	local t missing=
	for t in "$@"; do command -v "$t" >/dev/null 2>&1 || missing="$missing $t"; done
	[ -z "$missing" ] || die "not installed:$missing; run$(
		[ "$DLTEST_ARCH" = x86_64 ] || printf ' ARCH=%s' "$DLTEST_ARCH") scripts/setup (Debian 12) first"
}

# x86_64_only: for the scripts that have no arm64 side (check-series, which
# compiles arm64 itself, stress, fresh-check).
x86_64_only() {
	[ "$DLTEST_ARCH" = x86_64 ] ||
		die "$PROG is x86_64 only; run it without ARCH=$DLTEST_ARCH (arm64 has" \
		    "setup, build-kernel, build-selftests, mkinitramfs, run-guest and test-suite)"
}

# arm64_libs SYSROOT FILE...: the ELF interpreter and the shared libraries
# (paths inside SYSROOT, one a line) that the arm64 ELF FILEs need,
# transitively, found from their PT_INTERP and DT_NEEDED entries with
# readelf (ldd cannot run foreign binaries) in SYSROOT's library
# directories.  Sonames found nowhere are named on stderr; status 1 then.
arm64_libs() {
	local sysroot=$1 f so d found interp missing=
	shift
	local -A seen=()
	local queue=("$@")
	while [ ${#queue[@]} -gt 0 ]; do
		f=${queue[0]}
		queue=("${queue[@]:1}")
		interp=$(readelf -l "$f" 2>/dev/null |
			sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
		if [ -n "$interp" ] && [ -z "${seen[$interp]:-}" ]; then
			seen[$interp]=1
			printf '%s\n' "$interp"
		fi
		for so in $(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			[ -z "${seen[$so]:-}" ] || continue
			seen[$so]=1
			found=
			for d in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu /lib /usr/lib; do
				if [ -e "$sysroot$d/$so" ]; then found=$d/$so; break; fi
			done
			if [ -z "$found" ]; then
				missing="$missing $so (of ${f#"$sysroot"})"
				continue
			fi
			printf '%s\n' "$found"
			queue+=("$sysroot$found")
		done
	done
	[ -z "$missing" ] || { printf '%s: not found in %s:%s\n' "$PROG" "$sysroot" "$missing" >&2; return 1; }
}

now() { date +%s; }
elapsed() { local s=$(( $(now) - $1 )); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# run_logged LOG DESCRIPTION CMD...: run CMD with its output appended to
# LOG, print a phase line, a progress line every 30 s (the log's last line)
# and, on failure, the tail of the log.  Returns CMD's status.
run_logged() {
	local log=$1 desc=$2 t0 pid rc
	shift 2
	mkdir -p "$(dirname "$log")"
	t0=$(now)
	say "$desc (log: $log)"
	printf '\n==== %s: %s\n==== %s\n' "$(date -u +%FT%TZ)" "$desc" "$*" >>"$log"
	"$@" >>"$log" 2>&1 &
	pid=$!
	(
		while sleep 30 </dev/null >/dev/null 2>&1; do
			kill -0 "$pid" 2>/dev/null || exit 0
			printf '%s:   ... %s: %s\n' "$PROG" "$(elapsed "$t0")" \
				"$(tail -n 1 "$log" | cut -c1-100)"
		done
	# Not fd 9: build-kernel's O= lock must not outlive the build in an
	# orphaned `sleep`, or the next build of that dir waits for it.
	) 9>&- &
	local ticker=$!
	rc=0
	wait "$pid" || rc=$?
	kill "$ticker" 2>/dev/null || true
	wait "$ticker" 2>/dev/null || true
	if [ "$rc" -ne 0 ]; then
		printf '%s: FAILED (%s, status %d): %s; last lines of %s:\n' \
			"$PROG" "$(elapsed "$t0")" "$rc" "$desc" "$log" >&2
		tail -n 30 "$log" | sed 's/^/    /' >&2
	else
		say "  done in $(elapsed "$t0")"
	fi
	return "$rc"
}

# usage_from_header: print the comment block at the top of the script.
usage_from_header() {
	sed -n '2,/^[^#]/{/^#/!q;s/^# \{0,1\}//;p}' "$0"
}
want_help() {
	case ${1:-} in -h|--help|help) usage_from_header; exit 0 ;; esac
}

# ---- patch series helpers ------------------------------------------------

# series_list: the patch file names listed in patches/series, in order
# (comments and blank lines ignored).
series_list() {
	[ -f "$PATCHES/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$PATCHES/series"
}

# series_digest: one hash over patches/series and every listed patch.
series_digest() {
	local p
	{
		series_list
		for p in $(series_list); do
			[ -f "$PATCHES/$p" ] || die "patches/series lists $p, which does not exist"
			sha256sum <"$PATCHES/$p"
		done
	} | sha256sum | cut -d' ' -f1
}

# format_patch DIR RANGE: the one and only way patches are written, so that
# an unchanged commit always gives a byte-identical file (no commit hashes,
# no version signature, fixed abbreviation, no user format.* settings).
format_patch() {
	local out range=$2
	out=$(mkdir -p "$1" && cd "$1" && pwd)   # git -C: a relative -o would land in the tree
	git -C "$TREE" \
		-c core.abbrev=12 -c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c diff.relative=false -c diff.algorithm=myers -c diff.renames=true \
		-c diff.suppressBlankEmpty=false -c diff.orderFile=/dev/null \
		-c diff.statGraphWidth=20 -c diff.interHunkContext=0 \
		-c format.signOff=false -c format.coverLetter=false \
		-c format.thread=false -c format.numbered=auto -c format.suffix=.patch \
		-c format.subjectPrefix=PATCH \
		-c format.useAutoBase=false -c format.signature= \
		format-patch --quiet --zero-commit --no-signature --no-numbered \
		--abbrev=12 --stat=80 --stat-graph-width=20 -o "$out" "$range"
}

# state file recording what the tree was last synchronised with.
tree_state_file() { printf '%s/.git/dltest-applied\n' "$TREE"; }
record_tree_state() {
	printf '%s %s\n' "$(series_digest)" "$(git -C "$TREE" rev-parse HEAD)" >"$(tree_state_file)"
}

# Prints "URI SUITE COMPONENT..." for every enabled `deb` entry of the
# host's apt sources, one-line (.list) and deb822 (.sources) formats.
host_apt_entries() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" {
			i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
			line = $i; for (j = i + 1; j <= NF && $j !~ /^#/; j++) line = line " " $j
			print line }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'function flush() {
			if (types ~ /(^| )deb( |$)/ && enabled != "no")
				for (u in uris) for (s in suites) print uris[u], suites[s], comps
			delete uris; delete suites; types = comps = ""; enabled = "yes" }
		BEGIN { enabled = "yes" }
		/^[[:space:]]*#/ { next }
		/^[[:space:]]*$/ { flush(); next }
		{ key = tolower($1); sub(/:$/, "", key); $1 = ""; sub(/^ +/, "")
		  if (key == "types") types = $0
		  else if (key == "uris") { n = split($0, a, " "); for (i = 1; i <= n; i++) uris[i] = a[i] }
		  else if (key == "suites") { n = split($0, a, " "); for (i = 1; i <= n; i++) suites[i] = a[i] }
		  else if (key == "components") comps = $0
		  else if (key == "enabled") enabled = tolower($0) }
		END { flush() }' "$f"
	done
}
# mounted_under DIR: the mount points at or under DIR, deepest first (the
# roots of make fresh-check and make test-system are unmounted so).
mounted_under() {
	awk -v root="$1" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/mounts |
		sort -r
}

# debian12_apt_entries: the same, Debian 12's own archives only (bookworm,
# -updates, -security), for a root made with debootstrap (make fresh-check,
# make test-system): third-party repositories need keys a bare root does
# not have.  Its bookworm entry's URI is the mirror to debootstrap from.
debian12_apt_entries() {
	host_apt_entries | awk '$2 ~ /^bookworm([-\/]|$)/' | sort -u || true
}
