#!/usr/bin/env python3
"""Host side of the guest test harness: test plan, QEMU boots, results.

Used by scripts/run-tests (make test, make check-series) and
scripts/run-guest (make run).  See those scripts' --help.
"""

import argparse
import fnmatch
import functools
import importlib.machinery
import importlib.util
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHES = ("x86_64", "arm64")
PROG = os.environ.get("PROG", "run-tests")


def guest_dir(arch="x86_64"):
    """The guest staging dir: $GUEST_DIR, else build/guest (build/guest-arm64)."""
    g = Path(os.environ.get("GUEST_DIR") or
             ROOT / "build" / ("guest" if arch == "x86_64" else f"guest-{arch}"))
    return g if g.is_absolute() else ROOT / g


GUEST = guest_dir(os.environ.get("DLTEST_ARCH") or "x86_64")
GUEST_ROOT = GUEST / "root"
BASE_CPIO = GUEST / "base.cpio"


def set_arch(arch):
    """Points the guest paths (base.cpio, the staging tree) at ARCH's."""
    global GUEST, GUEST_ROOT, BASE_CPIO
    GUEST = guest_dir(arch)
    GUEST_ROOT = GUEST / "root"
    BASE_CPIO = GUEST / "base.cpio"

BOOT_OVERHEAD_S = int(os.environ.get("DLTEST_BOOT_OVERHEAD", 90))  # per-boot allowance
ICOUNT_SLOWDOWN = 2.0         # icount runs ~1.3x slower than real time
MEMORY = os.environ.get("QEMU_MEM", "512M")
# Boot modes of the plan: plain TCG; icount (-smp 1, deterministic
# clock); asym: plain TCG on arm64 with CPUs of two capacities (the
# virt machine's device tree with capacity-dmips-mhz added, asym_dtb());
# late: plain TCG booted with maxcpus= half the CPUs, the tests bring the
# others online (CPUs that were not up at boot).
MODES = ("tcg", "icount", "asym", "late")
# The arm64 machine, the same for the boot and for the dump of its device
# tree that asym boots edit.
ARM64_MACHINE = "virt,gic-version=3"
ARM64_CPU = "cortex-a57"
# asym: the first half of the CPUs (rounded up) are big, the rest little.
ASYM_BIG, ASYM_LITTLE = 1024, 512
KINDS = ("selftest", "client", "prefix", "harness")


def say(msg):
    print(f"{PROG}: {msg}", flush=True)


def die(msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr, flush=True)
    sys.exit(2)


# ---- the plan --------------------------------------------------------------

def available_tests(root=GUEST_ROOT):
    """kind -> {name: path relative to /opt/dltest} of the built guest."""
    t = root / "opt" / "dltest"
    avail = {k: {} for k in KINDS}
    for kind, sub in (("client", "clients"), ("prefix", "prefix"), ("harness", "harness")):
        d = t / sub
        if d.is_dir():
            for f in sorted(d.iterdir()):
                if f.is_file() and os.access(f, os.X_OK):
                    avail[kind][f.name] = f"{sub}/{f.name}"
    lst = t / "selftests" / "kselftest-list.txt"
    if lst.is_file():
        for line in lst.read_text().splitlines():
            line = line.strip()
            if ":" in line:
                coll, test = line.split(":", 1)
                avail["selftest"][line] = f"selftests/{coll}/{test}"
    return avail


def test_id(kind, name, path):
    if kind == "selftest":
        return name.replace(":", "/", 1)
    return path


def load_plan(plan_path, suite, avail, warn=print):
    """Returns a list of entries (dicts: id, path, cpus, mode, timeout)."""
    lines = []
    for no, raw in enumerate(Path(plan_path).read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        f = line.split()
        if len(f) != 5:
            die(f"{plan_path}:{no}: expected 'suite kind:pattern cpus mode timeout'")
        s, test, cpus, mode, tmo = f
        if ":" not in test:
            die(f"{plan_path}:{no}: test must be kind:pattern, not '{test}'")
        kind, pattern = test.split(":", 1)
        if kind not in KINDS:
            die(f"{plan_path}:{no}: unknown kind '{kind}' (one of {', '.join(KINDS)})")
        if mode not in MODES:
            die(f"{plan_path}:{no}: mode must be one of {', '.join(MODES)}")
        try:
            cpu_list = [int(c) for c in cpus.split(",")]
            timeout = int(tmo)
        except ValueError:
            die(f"{plan_path}:{no}: bad cpus '{cpus}' or timeout '{tmo}'")
        if mode == "icount" and cpu_list != [1]:
            die(f"{plan_path}:{no}: icount mode is for -smp 1 only")
        if mode == "late" and min(cpu_list) < 2:
            die(f"{plan_path}:{no}: late mode needs 2 CPUs or more")
        if s == suite:
            lines.append((no, kind, pattern, cpu_list, mode, timeout))
    explicit = {(k, p) for _, k, p, _, _, _ in lines if not any(c in p for c in "*?[")}
    entries = []
    for no, kind, pattern, cpu_list, mode, timeout in lines:
        if (kind, pattern) in explicit:
            names = [pattern]
            if pattern not in avail[kind]:
                warn(f"{plan_path}:{no}: {kind} '{pattern}' is not in the guest; it will fail")
        else:
            names = [n for n in sorted(avail[kind])
                     if fnmatch.fnmatchcase(n, pattern) and (kind, n) not in explicit]
            if not names:
                warn(f"{plan_path}:{no}: {kind}:{pattern} matches no test (yet)")
        for n in names:
            path = avail[kind].get(n) or {
                "selftest": f"selftests/{n.replace(':', '/', 1)}",
                "client": f"clients/{n}", "prefix": f"prefix/{n}",
                "harness": f"harness/{n}"}[kind]
            for c in cpu_list:
                entries.append(dict(id=test_id(kind, n, path), path=path, cpus=c,
                                    mode=mode, timeout=timeout))
    return entries


def group_name(cpus, mode):
    return f"{cpus}cpu-{mode}"


def groups_of(entries):
    groups = {}
    for e in entries:
        groups.setdefault((e["cpus"], e["mode"]), []).append(e)
    return dict(sorted(groups.items(), key=lambda kv: (kv[0][1] != "tcg", kv[0][0])))


# ---- QEMU ------------------------------------------------------------------

def second_channel(serial1):
    """arm64: QEMU's virt machine has a single PL011 UART, so the harness's
    second channel (KTAP, command output: ttyS1 on x86) is a virtio console,
    /dev/hvc0 in the guest.  SERIAL1 is -serial syntax: file:PATH."""
    if not serial1.startswith("file:"):
        die(f"arm64: the second channel must be file:PATH, not '{serial1}'")
    path = serial1[len("file:"):].replace(",", ",,")
    return ["-device", "virtio-serial-device",
            "-chardev", f"file,id=dlout,path={path}",
            "-device", "virtconsole,chardev=dlout"]


def tcg_accel(tcg_thread="multi"):
    """-accel of every boot.  multi (QEMU's default for these guests): one
    host thread per vCPU.  single: all vCPUs take turns on one host thread;
    the flavours with live code patching (JUMP_LABEL: Debian's) boot their
    multi-CPU groups so, because a multi-threaded TCG vCPU can go on
    executing an int3 that another vCPU's text_poke_bp() has already
    removed (docs/testing.md, "Live code patching under TCG")."""
    if tcg_thread not in ("multi", "single"):
        die(f"--tcg-thread must be multi or single, not '{tcg_thread}'")
    return ["-accel", "tcg" if tcg_thread == "multi" else "tcg,thread=single"]


def arm64_machine(cpus, machine_opts="", tcg_thread="multi"):
    """QEMU's arm64 machine of every boot and of the device-tree dump an
    asym boot edits (asym_dtb()): both must describe the same machine."""
    return [*tcg_accel(tcg_thread), "-M", ARM64_MACHINE + machine_opts, "-cpu", ARM64_CPU,
            "-m", MEMORY, "-smp", str(cpus)]


def qemu_cmd(bzimage, initrd, cpus, mode, flavour, serial0, serial1, append_extra="",
             arch="x86_64", dtb=None, tcg_thread="multi"):
    """The QEMU command line of one boot.  x86_64: the pc machine, console
    on ttyS0, second channel ttyS1.  arm64: -M virt with a GICv3 (more
    than 8 CPUs), cortex-a57, console ttyAMA0 (the PL011), second channel
    a virtio console (hvc0); `reboot -f` ends it through PSCI."""
    if arch not in ARCHES:
        die(f"unknown architecture '{arch}' (one of {', '.join(ARCHES)})")
    arm = arch == "arm64"
    append = ["console=ttyAMA0" if arm else "console=ttyS0", "panic=-1",
              f"dltest.kernel={flavour}", f"dltest.cpus={cpus}", f"dltest.mode={mode}"]
    if arm:
        cmd = ["qemu-system-aarch64", "-nodefaults", "-display", "none", "-no-reboot",
               *arm64_machine(cpus, tcg_thread=tcg_thread)]
        if dtb:
            cmd += ["-dtb", str(dtb)]
    else:
        cmd = ["qemu-system-x86_64", "-nodefaults", "-display", "none", "-no-reboot",
               *tcg_accel(tcg_thread), "-m", MEMORY, "-smp", str(cpus)]
    if mode == "icount":
        cmd += ["-icount", "shift=0,sleep=off"]
        if not arm:
            cmd += ["-cpu", "max,rdrand=off,rdseed=off"]
        cmd += ["-rtc", "clock=vm"]
        append += ["nokaslr", "norandmaps"]
    else:
        if not arm:
            cmd += ["-cpu", "max"]
        if cpus > (os.cpu_count() or 1):
            # More vCPUs than host cores: the host leaves a vCPU unrun for
            # tens to hundreds of ms while its clock goes on, and without
            # steal-time accounting (TCG) that time is charged to the
            # deadline task it was running.  A small reservation then owes
            # it for many periods (the CBS rule), throttled -- inside an
            # RCU read-side section if it was preempted there, so that a
            # grace period waits as long.  RCU reports such a wait after
            # 21 s; give it the debug config's 60 s.  A lockup still shows.
            append += ["rcupdate.rcu_cpu_stall_timeout=60"]
    if mode == "late":
        append += [f"maxcpus={late_boot_cpus(cpus)}"]
    if append_extra:
        append.append(append_extra)
    cmd += ["-kernel", str(bzimage), "-initrd", str(initrd),
            "-append", " ".join(append), "-serial", serial0]
    cmd += second_channel(serial1) if arm else ["-serial", serial1]
    return cmd


def late_boot_cpus(cpus):
    """CPUs a late boot brings up at boot (maxcpus=); the rest come later."""
    return max(1, cpus // 2)


def asym_capacities(cpus):
    """capacity-dmips-mhz of each CPU of an asym boot."""
    big = (cpus + 1) // 2
    return [ASYM_BIG if n < big else ASYM_LITTLE for n in range(cpus)]


def asym_dtb(dest, cpus):
    """The device tree of an asym boot: QEMU's own for the same machine
    (-machine dumpdtb=), with capacity-dmips-mhz on each CPU node
    (fdtput, Debian's device-tree-compiler), so that the guest sees CPUs
    of two capacities (/sys/devices/system/cpu/cpuN/cpu_capacity)."""
    for tool in ("qemu-system-aarch64", "fdtput"):
        if shutil.which(tool) is None:
            die(f"{tool} not found: run ARCH=arm64 scripts/setup")
    dump = ["qemu-system-aarch64", "-nodefaults", "-display", "none",
            *arm64_machine(cpus, f",dumpdtb={dest}")]
    r = subprocess.run(dump, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not Path(dest).is_file():
        die(f"could not dump the virt machine's device tree: {' '.join(dump)}: {r.stdout.strip()}")
    for n, cap in enumerate(asym_capacities(cpus)):
        r = subprocess.run(["fdtput", "-t", "u", str(dest), f"/cpus/cpu@{n}",
                            "capacity-dmips-mhz", str(cap)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode:
            die(f"fdtput on {dest} (/cpus/cpu@{n}) failed: {r.stdout.strip()}")


def boot_dtb(d, mode, arch, cpus):
    """The device tree a boot in mode MODE needs, made in directory D:
    asym's (arm64 only), else None (QEMU's own)."""
    if mode != "asym":
        return None
    if arch != "arm64":
        die("asym needs ARCH=arm64 (CPU capacities come from its device tree)")
    dtb = d / "asym.dtb"
    asym_dtb(dtb, cpus)
    return dtb


def make_boot_cpio(dest, files):
    """base.cpio + a second archive holding /etc/dltest/<name> files."""
    if not BASE_CPIO.is_file():
        die(f"{BASE_CPIO} missing: run guest/mkinitramfs"
            + (" with ARCH=arm64" if GUEST.name.endswith("-arm64") else ""))
    if shutil.which("cpio") is None:
        die("cpio not found: run scripts/setup")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "etc" / "dltest"
        d.mkdir(parents=True)
        for name, content in files.items():
            (d / name).write_text(content)
        names = "etc\netc/dltest\n" + "".join(f"etc/dltest/{n}\n" for n in sorted(files))
        extra = subprocess.run(["cpio", "-o", "-H", "newc", "--owner=+0:+0", "--quiet"],
                               cwd=tmp, input=names.encode(), stdout=subprocess.PIPE,
                               check=True).stdout
    with open(dest, "wb") as out:
        with open(BASE_CPIO, "rb") as base:
            shutil.copyfileobj(base, out)
        out.write(extra)


class Follower:
    """Prints the guest's 'dltest:' console lines as they appear."""

    def __init__(self, path, prefix):
        self.path, self.prefix, self.pos, self.buf = Path(path), prefix, 0, b""

    def read_new(self):
        """The bytes appended to the file since the last call."""
        try:
            with open(self.path, "rb") as f:
                f.seek(self.pos)
                data = f.read()
        except FileNotFoundError:
            return b""
        self.pos += len(data)
        return data

    def poll(self):
        self.buf += self.read_new()
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            text = line.decode(errors="replace").strip("\r")
            if text.startswith("dltest: test ") or "Kernel panic" in text:
                print(f"{PROG}:   [{self.prefix}] {text[len('dltest: '):] if text.startswith('dltest: ') else text}",
                      flush=True)


def run_qemu(cmd, timeout, log, follower=None, stdin=subprocess.DEVNULL):
    """Runs QEMU; returns (returncode or None, timed_out, seconds)."""
    if shutil.which(cmd[0]) is None:
        die(f"{cmd[0]} not found: run scripts/setup (it installs qemu-system-x86; "
            "with ARCH=arm64 also qemu-system-arm)")
    t0 = time.monotonic()
    with open(log, "wb") as qlog:
        qlog.write((" ".join(shlex.quote(c) for c in cmd) + "\n").encode())
        qlog.flush()
        p = subprocess.Popen(cmd, stdin=stdin, stdout=qlog, stderr=subprocess.STDOUT,
                             start_new_session=True)
        timed_out = False
        while True:
            try:
                p.wait(timeout=0.5)
                break
            except subprocess.TimeoutExpired:
                pass
            if follower:
                follower.poll()
            if timeout and time.monotonic() - t0 > timeout:
                timed_out = True
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
                break
        if follower:
            follower.poll()
    return p.returncode, timed_out, time.monotonic() - t0


# ---- commands --------------------------------------------------------------

def arch_label(arch):
    """Appended to results names, so that arm64 runs never take x86 ones' place."""
    return "" if arch == "x86_64" else f"-{arch}"


@functools.cache
def verdict_module():
    """scripts/verdict as a module, loaded once."""
    loader = importlib.machinery.SourceFileLoader("verdict", str(ROOT / "scripts" / "verdict"))
    verdict = importlib.util.module_from_spec(importlib.util.spec_from_loader("verdict", loader))
    loader.exec_module(verdict)
    return verdict


def emulator_fault(console):
    """scripts/verdict's emulator_fault(): one rule for the harness and the verdict."""
    return verdict_module().emulator_fault(console)


def emulator_fault_of(d):
    """scripts/verdict's emulator_fault() of boot directory d's console."""
    console = d / "console.log"
    return emulator_fault(console.read_text(errors="replace")) if console.is_file() else None


def boot_group(args, bz, results, g, cpus, mode, tests):
    """Boots group g once (its tests in one guest); returns its directory."""
    d = results / g
    d.mkdir()
    scale = args.timeout_scale
    listing = "".join(f"{i}\t{int(e['timeout'] * scale)}\t{e['id']}\t{e['path']}\n"
                      for i, e in enumerate(tests, 1))
    initrd = d / "initrd.cpio"
    make_boot_cpio(initrd, {"tests": listing})
    timeout = int((BOOT_OVERHEAD_S + sum(e["timeout"] for e in tests)) * scale)
    if mode == "icount":
        timeout = int(timeout * ICOUNT_SLOWDOWN)
    dtb = boot_dtb(d, mode, args.arch, cpus)
    if dtb:
        say(f"boot {g}: CPU capacities {asym_capacities(cpus)} ({dtb})")
    cmd = qemu_cmd(bz, initrd, cpus, mode, args.flavour,
                   f"file:{d / 'console.log'}", f"file:{d / 'ktap.log'}",
                   append_extra=args.append or "", arch=args.arch, dtb=dtb,
                   tcg_thread=args.tcg_thread)
    meta = dict(group=g, cpus=cpus, mode=mode, kernel=args.flavour, arch=args.arch,
                bzimage=str(bz),
                tests=[e["id"] for e in tests], timeout=timeout, cmd=cmd, finished=False)
    (d / "boot.json").write_text(json.dumps(meta, indent=1) + "\n")
    say(f"boot {g}: {len(tests)} tests, timeout {timeout}s")
    rc, timed_out, secs = run_qemu(cmd, timeout, d / "qemu.log",
                                   Follower(d / "console.log", g))
    meta.update(finished=True, qemu_rc=rc, timed_out=timed_out, seconds=round(secs, 1))
    (d / "boot.json").write_text(json.dumps(meta, indent=1) + "\n")
    initrd.unlink()
    say(f"boot {g}: {'TIMED OUT' if timed_out else 'done'} in {secs:.0f}s "
        f"(logs: {d}/console.log, ktap.log)")
    return d


def boot_group_once_more_after_emulator_fault(args, bz, results, g, cpus, mode, tests):
    """Boots group g; once more if the boot died of the emulator, not the kernel.

    That boot (see emulator_fault() in scripts/verdict) is kept as
    <g>.emulator-fault, marked superseded_by in its boot.json and listed
    by the verdict; the second boot is judged whatever it shows.
    """
    d = boot_group(args, bz, results, g, cpus, mode, tests)
    fault = emulator_fault_of(d)
    if not fault:
        return
    kept = results / f"{g}.emulator-fault"
    d.rename(kept)
    meta = json.loads((kept / "boot.json").read_text())
    meta.update(superseded_by=g, emulator_fault=fault)
    (kept / "boot.json").write_text(json.dumps(meta, indent=1) + "\n")
    say(f"boot {g}: emulator fault, {fault}; booting the group once more "
        f"(first boot's logs: {kept})")
    boot_group(args, bz, results, g, cpus, mode, tests)


def cmd_tests(args):
    set_arch(args.arch)
    bz = Path(args.bzimage)
    if not bz.is_file():
        die(f"{bz} missing (build the kernel first)")
    avail = available_tests(GUEST_ROOT)
    entries = load_plan(args.plan, args.suite, avail, warn=lambda m: say(f"warning: {m}"))
    asym = [e for e in entries if e["mode"] == "asym"]
    if asym and args.arch != "arm64":
        # Only the arm64 guest gets its CPU capacities from a device tree.
        say(f"{len(asym)} asym test runs (CPUs of two capacities) are for ARCH=arm64: not run")
        entries = [e for e in entries if e["mode"] != "asym"]
    wide = int(os.environ.get("WIDE_CPUS") or 0)
    top = max((e["cpus"] for e in entries if e["mode"] == "tcg"), default=0)
    if args.filter:
        entries = [e for e in entries if fnmatch.fnmatchcase(e["id"], args.filter)]
    if wide:
        # A bigger host: the plan's widest TCG boot (the functional SMP
        # tests) runs at -smp WIDE_CPUS instead.
        for e in entries:
            if e["mode"] == "tcg" and e["cpus"] == top:
                e["cpus"] = wide
    groups = groups_of(entries)
    if args.groups:
        want = set(args.groups.split(","))
        groups = {k: v for k, v in groups.items() if group_name(*k) in want}
    if not groups:
        die(f"no test of suite '{args.suite}' in {args.plan} to run")
    label = f"{args.flavour}-{args.variant}" if args.variant else args.flavour
    label += arch_label(args.arch)
    results = Path(args.results) if args.results else (
        ROOT / "build" / "results" / f"{label}-{args.suite}-{time.strftime('%Y%m%d-%H%M%S')}")
    if results.exists():
        shutil.rmtree(results)
    results.mkdir(parents=True)
    latest = results.parent / f"latest-{label}-{args.suite}"
    if latest.is_symlink() or latest.exists():
        latest.unlink()
    latest.symlink_to(results.name)
    say(f"{len(entries)} test runs in {len(groups)} boots of {bz} "
        f"(kernel={args.flavour}); results in {results}")
    t_all = time.monotonic()
    for (cpus, mode), tests in groups.items():
        g = group_name(cpus, mode)
        boot_group_once_more_after_emulator_fault(args, bz, results, g, cpus, mode, tests)
    say(f"all boots done in {time.monotonic() - t_all:.0f}s")
    verdict = [sys.executable, str(ROOT / "scripts" / "verdict"), str(results)]
    with open(results / "summary.txt", "w") as out:
        r = subprocess.run(verdict, stdout=subprocess.PIPE, text=True)
        out.write(r.stdout)
    print(f"{PROG}: summary (also in {results}/summary.txt):", flush=True)
    sys.stdout.write(r.stdout)
    sys.stdout.flush()
    return r.returncode


def cmd_guest(args):
    set_arch(args.arch)
    bz = Path(args.bzimage)
    if not bz.is_file():
        die(f"{bz} missing (build the kernel first)")
    d = ROOT / "build" / "results" / f"run{arch_label(args.arch)}"
    d.mkdir(parents=True, exist_ok=True)
    initrd = d / "initrd.cpio"
    files = {}
    if args.cmd is not None:
        files["cmd"] = args.cmd + "\n"
    make_boot_cpio(initrd, files)
    for f in ("console.log", "out.log"):
        (d / f).unlink(missing_ok=True)
    dtb = boot_dtb(d, args.mode, args.arch, args.cpus)
    if args.cmd is None:
        cmd = qemu_cmd(bz, initrd, args.cpus, args.mode, args.flavour,
                       "mon:stdio", f"file:{d / 'out.log'}", arch=args.arch, dtb=dtb,
                       tcg_thread=args.tcg_thread)
        print(f"{PROG}: booting {bz} at -smp {args.cpus} ({args.mode}); "
              "exit the shell to stop, or Ctrl-A x", flush=True)
        return subprocess.call(cmd)
    cmd = qemu_cmd(bz, initrd, args.cpus, args.mode, args.flavour,
                   f"file:{d / 'console.log'}", f"file:{d / 'out.log'}", arch=args.arch,
                   dtb=dtb, tcg_thread=args.tcg_thread)
    print(f"{PROG}: running in the guest ({args.flavour}, -smp {args.cpus}, {args.mode}): "
          f"{args.cmd}  [console log: {d}/console.log]", file=sys.stderr, flush=True)

    class Out(Follower):
        def poll(self):
            data = self.read_new()
            sys.stdout.write(data.replace(b"\r\n", b"\n").decode(errors="replace"))
            sys.stdout.flush()

    rc, timed_out, secs = run_qemu(cmd, args.timeout, d / "qemu.log", Out(d / "out.log", ""))
    status = None
    for line in (d / "console.log").read_text(errors="replace").splitlines():
        if line.startswith("dltest: command exit status "):
            status = int(line.split()[-1])
    if timed_out:
        print(f"{PROG}: guest timed out after {args.timeout}s (console: {d}/console.log)",
              file=sys.stderr)
        return 124
    if status is None:
        print(f"{PROG}: the guest ended without a command status (QEMU status {rc}); "
              f"see {d}/console.log", file=sys.stderr)
        return 125
    return status


def system_cmd(kernel, initrd, disk, cpus, serial0, serial1):
    """The QEMU command line of make test-system's boot: the Debian
    system's own kernel and initramfs (from its /boot), its disk as
    virtio /dev/vda, systemd as PID 1; KTAP of the checks on ttyS1."""
    append = ["root=/dev/vda", "rw", "console=ttyS0", "panic=-1",
              "systemd.show_status=1", "systemd.log_color=0"]
    return ["qemu-system-x86_64", "-nodefaults", "-display", "none", "-no-reboot",
            *tcg_accel("single"), "-cpu", "max", "-m", "2G", "-smp", str(cpus),
            "-kernel", str(kernel), "-initrd", str(initrd), "-append", " ".join(append),
            "-drive", f"file={disk},if=virtio,format=raw",
            "-serial", serial0, "-serial", serial1]


def system_verdict(results, timed_out):
    """Results of a test-system boot: its checks' KTAP, whether they ran to
    the end, and the console's first kernel report; prints the per-check
    lines and `N passed, N failed`; returns the exit status."""
    ktap = results / "ktap.log"
    lines = ktap.read_text(errors="replace").splitlines() if ktap.is_file() else []
    console = (results / "console.log").read_text(errors="replace")
    passed, failed, skipped, rerun = [], [], [], []
    for line in lines:
        if line.startswith("ok "):
            name = line.split(None, 2)[2]
            (skipped if "# SKIP" in name else passed).append(name)
            if "# RERUN" in name:
                rerun.append(name)
        elif line.startswith("not ok "):
            failed.append(line.split(None, 3)[3])
    begun = any(l.startswith("##### dltest-system begin") for l in lines)
    ended = any(l.startswith("##### dltest-system end") for l in lines)
    if not begun:
        failed.append("system:boot: the checks never started (systemd did not reach "
                      "multi-user.target or dltest-system.service did not run; "
                      f"see {results}/console.log)")
    elif not ended:
        failed.append("system:boot: the checks did not run to their end"
                      + (" (timed out)" if timed_out else ""))
    else:
        passed.append("system:boot")
    verdict = verdict_module()
    report = None
    for i, l in enumerate(console.splitlines()):
        if verdict.kernel_problem(verdict.TIMESTAMP.sub("", l.rstrip("\r"))):
            report = "\n".join(console.splitlines()[i:i + 40])
            break
    if report:
        failed.append("system:console-clean: kernel report on the console")
    else:
        passed.append("system:console-clean")
    print("Per check:")
    for n in passed:
        print(f"  PASS {n}")
    for n in skipped:
        print(f"  SKIP {n}")
    for n in failed:
        print(f"  FAIL {n}")
    if rerun:
        print(f"Failed, then passed on a rerun of their failed tests ({len(rerun)}):")
        for n in rerun:
            print(f"  RERUN {n}")
    if report:
        print("First kernel report on the console:")
        print(report)
    print(f"{len(skipped)} skipped")
    print(f"{len(passed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def cmd_system(args):
    results = Path(args.results)
    kernel = results / f"vmlinuz-{args.release}"
    initrd = results / f"initrd.img-{args.release}"
    for f in (kernel, initrd, Path(args.disk)):
        if not f.is_file():
            die(f"{f} missing")
    cmd = system_cmd(kernel, initrd, args.disk, args.cpus,
                     f"file:{results / 'console.log'}", f"file:{results / 'ktap.log'}")
    (results / "boot.json").write_text(json.dumps(dict(cmd=cmd, release=args.release),
                                                  indent=1) + "\n")
    say(f"system boot: {args.release}, -smp {args.cpus}, timeout {args.timeout}s "
        f"(console: {results}/console.log)")

    class Progress(Follower):
        def poll(self):
            self.buf += self.read_new()
            *lines, self.buf = self.buf.split(b"\n")
            for line in lines:
                text = line.decode(errors="replace").strip("\r")
                if "dltest-system: check" in text or \
                        ("Reached target" in text and "Multi-User" in text):
                    say(text.split("] ", 1)[-1].strip())

    rc, timed_out, secs = run_qemu(cmd, args.timeout, results / "qemu.log",
                                   Progress(results / "console.log", "system"))
    say(f"system boot: {'TIMED OUT' if timed_out else 'done'} in {secs:.0f}s")
    return system_verdict(results, timed_out)


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__)
    sub = ap.add_subparsers(dest="what", required=True)
    default_arch = os.environ.get("DLTEST_ARCH") or "x86_64"
    t = sub.add_parser("tests", help="boot once per (cpus, mode) group and run the plan")
    t.add_argument("--bzimage", required=True, help="the kernel (arm64: its Image)")
    t.add_argument("--arch", choices=ARCHES, default=default_arch,
                   help="guest architecture: x86_64 (default) or arm64 (QEMU virt, "
                   "build/guest-arm64; results <kernel>-arm64-<suite>-<time>)")
    t.add_argument("--flavour", default="series",
                   help="passed to the guest as dltest.kernel= (series, upstream, prefix-0001)")
    t.add_argument("--suite", default="test")
    t.add_argument("--plan", default=str(ROOT / "tests" / "plan"))
    t.add_argument("--results", help="results directory (default build/results/<kernel>-<suite>-<time>)")
    t.add_argument("--groups", help="only these groups, e.g. 1cpu-tcg,2cpu-tcg")
    t.add_argument("--variant", default="",
                   help="kernel variant in the results name, e.g. debug: <kernel>-debug-<suite>-<time>")
    t.add_argument("--append", help="extra kernel command line; NAME=value words without a dot "
                   "reach the tests as environment variables (through /init)")
    t.add_argument("--timeout-scale", type=float, default=1.0,
                   help="multiply every test's and boot's timeout (slow debug kernels)")
    t.add_argument("--filter", help="only test ids matching this glob")
    t.add_argument("--tcg-thread", choices=("multi", "single"), default="multi",
                   help="QEMU TCG threads: multi (one per vCPU, default) or single "
                   "(vCPUs share one host thread: coherent live code patching)")
    g = sub.add_parser("guest", help="boot into a shell or run one command")
    g.add_argument("--bzimage", required=True, help="the kernel (arm64: its Image)")
    g.add_argument("--arch", choices=ARCHES, default=default_arch)
    g.add_argument("--flavour", default="series")
    g.add_argument("--cpus", type=int, default=2)
    g.add_argument("--mode", default="tcg", choices=MODES,
                   help="asym (arm64 only): CPUs of two capacities; "
                        "late: maxcpus= half the CPUs")
    g.add_argument("--cmd")
    g.add_argument("--timeout", type=int, default=600)
    g.add_argument("--tcg-thread", choices=("multi", "single"), default="multi")
    y = sub.add_parser("system", help="boot make test-system's disk image and judge its checks")
    y.add_argument("--results", required=True, help="dir with vmlinuz-R and initrd.img-R")
    y.add_argument("--disk", required=True)
    y.add_argument("--release", required=True)
    y.add_argument("--cpus", type=int, default=2)
    y.add_argument("--timeout", type=int, default=1800)
    args = ap.parse_args()
    if args.what == "system":
        return cmd_system(args)
    if args.what == "tests":
        return cmd_tests(args)
    return cmd_guest(args)


if __name__ == "__main__":
    sys.exit(main())
