# SCHED_DEADLINE series for Debian's linux-source-6.12: build, boot, test.
# See README.md.  Every step is a script under scripts/ (each has --help).
#
#   make setup          install build deps + the pinned linux-source-6.12
#   make tree | apply   build/linux = base + patches/ (never clobbers work)
#   make export         build/linux commits -> patches/
#   make kernel         build the kernel (KERNEL=series|upstream;
#                       ARCH=arm64 cross-builds an arm64 Image)
#   make run [CMD=...]  boot it in QEMU: a shell, or run CMD and exit with
#                       its status (CPUS=2 MODE=tcg|icount|asym|late)
#   make test           harness self-tests + build + boot the test plan;
#                       last line `N passed, N failed` (KERNEL=upstream
#                       runs the same suite on the pristine kernel;
#                       CPUS=16 runs its 8-CPU boot at 16 CPUs)
#   make deb            installable Debian packages of the patched kernel
#                       into build/deb/ (FLAVOUR=debian|debian-rt, default
#                       debian-rt; MODULES=test: the test boots' trimmed
#                       module set; scripts/build-deb)
#   make test-system    a Debian 12 system (debootstrap, systemd) with the
#                       package of make deb installed by dpkg -i, booted
#                       in QEMU from its disk: client, kselftest, systemd
#                       slice and cpuset checks (FLAVOUR=debian-rt by
#                       default; needs root; scripts/test-system)
#   make test-harness   only the harness's own tests (no kernel needed;
#                       E2E=1 also boots a guest with a failing and a hung test)
#   make check-series   checkpatch, every prefix builds, config matrix,
#                       0001-only kernel boots its back-out check
#   make fresh-check    the front door: a bare Debian 12 root (debootstrap),
#                       a clone of HEAD, scripts/setup, make run
#                       CMD='uname -r', make test-harness (needs root)
#   make bench          our class against pristine 6.12 (builds a missing
#                       kernel): plots + data in bench/results/latest/
#                       (QUICK=1: a few minutes, to build/bench/quick/)
#   make stress         the long reliability run on the debug kernel:
#                       churn + hotplug, trinity, fuzzer, privilege,
#                       starvation; figures in figures.txt (scripts/stress)
#
# ARCH=arm64 (setup, kernel, selftests, initramfs, run, test): the same
# for an arm64 guest on QEMU's virt machine (cross-built, TCG), in
# build/obj/$(KERNEL)-arm64, build/guest-arm64, results
# build/results/latest-$(KERNEL)-arm64-test; `make setup ARCH=arm64` first.
# FLAVOUR=guest|debian|debian-rt (kernel, run, test, deb): guest (default)
# is the tinyconfig test kernel; debian and debian-rt start from Debian's
# own configuration (generic, PREEMPT_RT) of the pinned version, in
# build/obj/$(KERNEL)-$(FLAVOUR); their QEMU boots run TCG on one thread.
# Variables: ARCH (x86_64|arm64), KERNEL (series), TREE (build/linux), JOBS (2), CPUS (2),
# MODE (tcg), CMD, BOOTS (e.g. 1cpu-tcg), FILTER (test id glob), FORCE=1,
# ALLOW_OTHER_BASE=1, DEBUG=1 (kernel with config/debug.config, built in
# build/obj/$(KERNEL)-debug: kernel, run, test, stress), KASAN=1 (stress
# only: the debug kernel plus config/kasan.config, build/obj/$(KERNEL)-kasan).

SHELL := /bin/bash
KERNEL ?= series
CPUS ?= 2
MODE ?= tcg
TIMEOUT ?= 600
FLAVOUR ?= guest
export KERNEL TREE JOBS FORCE ALLOW_OTHER_BASE CMD BOOTS FILTER DEBUG KASAN FLAVOUR

# ARCH: x86_64 (the default, as before) or arm64, handed to the scripts,
# which keep it out of Kbuild's environment for x86_64 (scripts/lib.sh).
ARCH ?= x86_64
override ARCH := $(patsubst x86,x86_64,$(patsubst aarch64,arm64,$(ARCH)))
ifeq ($(filter x86_64 arm64,$(ARCH)),)
$(error ARCH must be x86_64 or arm64, not '$(ARCH)')
endif
ARCH_SUFFIX = $(if $(filter arm64,$(ARCH)),-arm64)
# check-series, bench, stress and fresh-check are x86_64's (check-series
# has its own arm64 matrix entry).
x86_only = $(if $(filter arm64,$(ARCH)),$(error make $@ is x86_64 only; ARCH=arm64 \
	is for setup, kernel, selftests, initramfs, run and test))
KIMAGE = $(if $(filter arm64,$(ARCH)),arch/arm64/boot/Image,arch/x86/boot/bzImage)
ifeq ($(filter guest debian debian-rt,$(FLAVOUR)),)
$(error FLAVOUR must be guest, debian or debian-rt, not '$(FLAVOUR)')
endif
FLAVOUR_SUFFIX = $(if $(filter-out guest,$(FLAVOUR)),-$(FLAVOUR))
BZIMAGE = build/obj/$(KERNEL)$(FLAVOUR_SUFFIX)$(if $(filter 1,$(DEBUG)),-debug)$(ARCH_SUFFIX)/$(KIMAGE)
# The debian flavours' multi-CPU boots run QEMU's TCG on one host thread
# (docs/testing.md, "Live code patching under TCG").
TCG_THREAD = $(if $(filter-out guest,$(FLAVOUR)),single,multi)

.PHONY: help setup tree apply export kernel selftests initramfs guest run test deb test-system \
	test-harness check-series fresh-check bench stress clean

help:
	@sed -n '1,/^$$/{s/^# \{0,1\}//;p}' Makefile

setup:
	ARCH=$(ARCH) scripts/setup

tree apply:
	scripts/make-tree --apply

export:
	scripts/export-series

kernel:
	scripts/make-tree --ensure
	ARCH=$(ARCH) scripts/build-kernel

selftests:
	scripts/make-tree --ensure
	ARCH=$(ARCH) scripts/build-selftests

initramfs guest: selftests
	ARCH=$(ARCH) guest/mkinitramfs

run: kernel initramfs
	@if [ -n "$$CMD" ]; then \
		scripts/run-guest --bzimage $(BZIMAGE) --arch $(ARCH) --flavour $(KERNEL) \
			--cpus $(CPUS) --mode $(MODE) --tcg-thread $(TCG_THREAD) \
			--timeout $(TIMEOUT) --cmd "$$CMD"; \
	else \
		scripts/run-guest --bzimage $(BZIMAGE) --arch $(ARCH) --flavour $(KERNEL) \
			--cpus $(CPUS) --mode $(MODE) --tcg-thread $(TCG_THREAD); \
	fi

# CPUS given to make test (command line or environment): the plan's widest
# boot (8 CPUs, functional SMP tests) runs at that count, for bigger hosts.
test:
	@$(if $(filter command line environment,$(origin CPUS)),WIDE_CPUS=$(CPUS)) \
		ARCH=$(ARCH) scripts/test-suite

deb:
	scripts/make-tree --ensure
	ARCH=$(ARCH) $(if $(filter command line environment,$(origin FLAVOUR)),,FLAVOUR=debian-rt) \
		scripts/build-deb

test-system:
	@$(x86_only)scripts/make-tree --ensure
	@ARCH=x86_64 $(if $(filter command line environment,$(origin FLAVOUR)),,FLAVOUR=debian-rt) \
		scripts/test-system

test-harness:
	DLTEST_E2E=$(E2E) python3 -m unittest discover -v -s tests/harness

check-series:
	@$(x86_only)ARCH=x86_64 scripts/check-series

fresh-check:
	@$(x86_only)ARCH=x86_64 scripts/fresh-check

# Not part of `make test` or CI: a benchmark, not a test.
# A kernel is built only when its bzImage is missing (a fresh clone).
bench:
	@$(x86_only)for k in series upstream; do \
		[ -f build/obj/$$k/arch/x86/boot/bzImage ] || \
		nice -n 10 $(MAKE) --no-print-directory kernel KERNEL=$$k || exit 1; \
	done
	@nice -n 10 scripts/bench $(if $(filter 1,$(QUICK)),--quick)

stress:
	@$(x86_only)ARCH=x86_64 scripts/stress

clean:
	rm -rf build/results build/guest build/guest-arm64 build/logs
