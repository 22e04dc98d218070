#!/usr/bin/env python3
"""The harness's own tests: scripts/verdict must turn a failing KTAP stream,
a kernel WARN, an oops, a hung boot, a bad exit status, an all-skipped
run and a leaf that fails its rerun too red (a failed leaf followed by
what it printed), and a clean run (or one whose
only failure passed its rerun, listed apart) green.  Fixtures: tests/harness/fixtures/<case>/
(boot.json, console.log, ktap.log as scripts/run-tests writes them, and
expected.json) plus one-file.log, a single serial log with both streams.
Also checks the plan expansion of scripts/dltest.py.
Run: make test-harness  (python3 -m unittest discover -s tests/harness)
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VERDICT = ROOT / "scripts" / "verdict"
FIX = HERE / "fixtures"
sys.path.insert(0, str(ROOT / "scripts"))


def verdict(*args):
    r = subprocess.run([sys.executable, str(VERDICT), *map(str, args)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


class Verdict(unittest.TestCase):
    def check(self, target, expected):
        rc, out = verdict(target)
        lines = out.rstrip("\n").splitlines()
        want = f"{expected['passed']} passed, {expected['failed']} failed"
        self.assertEqual(lines[-1], want, out)
        self.assertEqual(lines[-2], f"{expected['skipped']} skipped", out)
        self.assertEqual(rc, 1 if expected["failed"] else 0, out)
        for text in expected.get("failures_contain", []):
            self.assertTrue(any(l.startswith("  FAIL ") and text in l for l in lines),
                            f"no failure line containing {text!r} in:\n{out}")
        return out

    def test_clean_boot_passes(self):
        out = self.check(FIX / "pass", {"passed": 3, "failed": 0, "skipped": 0})
        self.assertNotIn("FAIL", out)

    def test_failing_ktap_stream(self):
        self.check(FIX / "ktap-fail", json.loads((FIX / "ktap-fail/expected.json").read_text()))

    def test_failed_leaf_says_what_it_expected(self):
        # The leaf's own diagnostics follow its failure line, so a CI run
        # whose logs are gone still says which expectation failed.
        out = self.check(FIX / "ktap-fail", json.loads((FIX / "ktap-fail/expected.json").read_text()))
        lines = out.splitlines()
        i = next(i for i, l in enumerate(lines)
                 if l.startswith("  FAIL sched_deadline/demo:global.second"))
        self.assertEqual(lines[i + 1], "  | demo.c:42:second:Expected 0 (0) == ret (-1)", out)
        self.assertNotIn("FAIL  global.second", lines[i + 2], out)

    def test_rerun_pass_is_listed_apart(self):
        # A leaf that failed and passed its rerun counts, and is listed with
        # its first result; the program's exit status 1 is not a failure.
        out = self.check(FIX / "rerun-pass",
                         json.loads((FIX / "rerun-pass/expected.json").read_text()))
        self.assertIn("RERUN sched_deadline/demo:global.second @2cpu-tcg: first run not ok", out)

    def test_rerun_fail_fails(self):
        self.check(FIX / "rerun-fail", json.loads((FIX / "rerun-fail/expected.json").read_text()))

    def test_warn_fails_even_if_all_ok(self):
        self.check(FIX / "warn", json.loads((FIX / "warn/expected.json").read_text()))

    def test_kernel_report_excerpt(self):
        # A kernel report is printed with its console lines and the test
        # around it, so a run whose logs are gone still shows the trace.
        out = self.check(FIX / "warn", json.loads((FIX / "warn/expected.json").read_text()))
        self.assertIn("Kernel report: kernel @2cpu-tcg: WARNING: at kernel/sched/core.c:2345", out)
        self.assertIn("guest running: no test (after harness/smoke)", out)
        self.assertIn("  | [    2.104100]  __schedule+0x2f1/0x9a0", out)
        with tempfile.TemporaryDirectory() as tmp:
            d = self.boot_with_console_line(
                tmp, "b", "dltest: test 1/2: sched_deadline/hotplug (timeout 180s)\n"
                "[   12.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
                "[   12.000001] rcu:     3-...!: (0 ticks this GP)")
            rc, out = verdict(d)
            self.assertEqual(rc, 1, out)
            self.assertIn("guest running: sched_deadline/hotplug", out)
            self.assertIn("  | [   12.000001] rcu:     3-...!: (0 ticks this GP)", out)

    def test_oops_and_panic(self):
        self.check(FIX / "oops", json.loads((FIX / "oops/expected.json").read_text()))

    STALE_INT3 = ("dltest: test 1/2: sched_deadline/events (timeout 300s)\n"
                  "[    6.054750] Oops: int3: 0000 [#1] PREEMPT SMP\n"
                  "[    6.055260] CPU: 1 UID: 0 PID: 16 Comm: rcu_preempt Not tainted\n"
                  "[    6.055474] RIP: 0010:__schedule+0x55e/0x7bf\n"
                  "[    6.056104] Code: 4c 89 e9 4c 89 e2 e8 <c4> d8 e0 ff 65 ff 0d\n"
                  "[    6.518871] Kernel panic - not syncing: Fatal exception in interrupt")

    def test_emulator_fault_is_only_a_removed_int3(self):
        # The int3 at RIP-1 was already replaced (e8): the emulator's.  One
        # still in memory (cc), or an int3 Oops after another report, is the
        # kernel's and stays a failure.
        sys.path.insert(0, str(ROOT / "scripts"))
        import dltest
        fault = dltest.emulator_fault(self.STALE_INT3)
        self.assertIn("Oops: int3 at __schedule+0x55e/0x7bf, where the byte is e8", fault)
        self.assertIsNone(dltest.emulator_fault(self.STALE_INT3.replace("e8 <c4>", "cc <c4>")))
        self.assertIsNone(dltest.emulator_fault(
            "[    5.000000] WARNING: CPU: 0 PID: 1 at kernel/sched/deadline.c:100\n"
            + self.STALE_INT3))
        self.assertIsNone(dltest.emulator_fault(self.STALE_INT3.replace("int3", "invalid opcode")))

    def test_repeated_boot_after_emulator_fault(self):
        # run-tests boots the group once more: the first boot is listed, not
        # judged; the second is judged (here clean, so the run is green).
        sys.path.insert(0, str(ROOT / "scripts"))
        import dltest
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp)
            consoles = [self.STALE_INT3, ""]

            def fake_boot(args, bz, results, g, cpus, mode, tests):
                d = results / g
                d.mkdir()
                for f in ("console.log", "ktap.log", "boot.json"):
                    (d / f).write_bytes((FIX / "pass" / f).read_bytes())
                with open(d / "console.log", "a") as c:
                    c.write(consoles.pop(0) + "\n")
                return d

            real, dltest.boot_group = dltest.boot_group, fake_boot
            try:
                dltest.boot_group_once_more_after_emulator_fault(
                    None, None, results, "2cpu-tcg", 2, "tcg", [])
            finally:
                dltest.boot_group = real
            self.assertEqual(consoles, [])
            kept = json.loads((results / "2cpu-tcg.emulator-fault/boot.json").read_text())
            self.assertEqual(kept["superseded_by"], "2cpu-tcg")
            out = self.check(results, {"passed": 3, "failed": 0, "skipped": 0})
            self.assertIn("REPEAT 2cpu-tcg: Oops: int3 at __schedule+0x55e/0x7bf", out)
            # A second emulator fault is judged: the run is red.
            shutil.rmtree(results / "2cpu-tcg")
            consoles[:] = [self.STALE_INT3]
            dltest.boot_group = fake_boot
            try:
                d = dltest.boot_group(None, None, results, "2cpu-tcg", 2, "tcg", [])
            finally:
                dltest.boot_group = real
            self.check(results, {"passed": 3, "failed": 2, "skipped": 0,
                                 "failures_contain": ["kernel @2cpu-tcg: Oops: int3"]})

    def test_hung_boot(self):
        self.check(FIX / "hung", json.loads((FIX / "hung/expected.json").read_text()))

    def test_exit_status_timeout_truncation(self):
        self.check(FIX / "exit-status", json.loads((FIX / "exit-status/expected.json").read_text()))

    def test_skips_are_not_passes(self):
        self.check(FIX / "skip-only", json.loads((FIX / "skip-only/expected.json").read_text()))

    def test_tests_never_started(self):
        self.check(FIX / "no-begin", json.loads((FIX / "no-begin/expected.json").read_text()))

    def test_one_file_serial_log(self):
        self.check(FIX / "one-file.log", json.loads((FIX / "one-file.expected.json").read_text()))

    def test_results_dir_of_boots(self):
        # A run with a clean boot and a hung one is red, totals add up.
        with tempfile.TemporaryDirectory() as tmp:
            for case in ("pass", "hung"):
                d = Path(tmp) / case
                d.mkdir()
                for f in (FIX / case).iterdir():
                    if f.name != "expected.json":
                        (d / f.name).write_bytes(f.read_bytes())
            # The same group name in both: make them distinct.
            meta = json.loads((Path(tmp) / "hung/boot.json").read_text())
            meta["group"] = "1cpu-tcg"
            (Path(tmp) / "hung/boot.json").write_text(json.dumps(meta))
            self.check(tmp, {"passed": 3, "failed": 5, "skipped": 0,
                             "failures_contain": ["boot @1cpu-tcg: timed out"]})

    def test_unfinished_boot(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp) / "b"
            d.mkdir()
            for f in ("console.log", "ktap.log"):
                (d / f).write_bytes((FIX / "pass" / f).read_bytes())
            meta = json.loads((FIX / "pass/boot.json").read_text())
            meta["finished"] = False
            (d / "boot.json").write_text(json.dumps(meta))
            self.check(tmp, {"passed": 3, "failed": 1, "skipped": 0,
                             "failures_contain": ["did not finish this boot"]})

    def boot_with_console_line(self, tmp, name, line):
        d = Path(tmp) / name
        d.mkdir()
        (d / "ktap.log").write_bytes((FIX / "pass/ktap.log").read_bytes())
        console = (FIX / "pass/console.log").read_text()
        (d / "console.log").write_text(console + line + "\n")
        meta = json.loads((FIX / "pass/boot.json").read_text())
        (d / "boot.json").write_text(json.dumps(meta))
        return d

    def test_debug_kernel_splats(self):
        # Each report of the debug kernel (config/debug.config) fails the
        # boot on its own, even when every test passed.
        lines = [l.split(" | ", 1) for l in
                 (FIX / "debug-splats/splats.txt").read_text().splitlines()
                 if l and not l.startswith("#")]
        self.assertGreater(len(lines), 20)
        for kind, line in lines:
            with self.subTest(kind=kind, line=line), tempfile.TemporaryDirectory() as tmp:
                d = self.boot_with_console_line(tmp, "b", line)
                rc, out = verdict(d)
                self.assertEqual(rc, 1, out)
                self.assertTrue(out.rstrip().endswith("3 passed, 1 failed"), out)
                self.assertIn("FAIL kernel @", out)

    def test_debug_kernel_benign_lines(self):
        # What a healthy debug kernel prints (lockdep banner, detector
        # set-up, RT throttling, hotplug) is not a failure.
        with tempfile.TemporaryDirectory() as tmp:
            text = "\n".join(l for l in (FIX / "debug-splats/benign.txt").read_text().splitlines()
                             if not l.startswith("#"))
            d = self.boot_with_console_line(tmp, "b", text)
            self.check(d, {"passed": 3, "failed": 0, "skipped": 0})

    def test_missing_results(self):
        rc, out = verdict(FIX / "does-not-exist")
        self.assertEqual(rc, 1)
        self.assertTrue(out.rstrip().endswith("0 passed, 1 failed"), out)


class Plan(unittest.TestCase):
    def test_expansion(self):
        import dltest
        avail = {"selftest": {"sched_deadline:abi": "selftests/sched_deadline/abi",
                              "sched_deadline:timing": "selftests/sched_deadline/timing"},
                 "client": {"chrt.sh": "clients/chrt.sh"}, "prefix": {},
                 "harness": {"smoke": "harness/smoke"}}
        with tempfile.NamedTemporaryFile("w", suffix=".plan", delete=False) as f:
            f.write("test harness:smoke 1,2,4 tcg 30\n"
                    "test selftest:sched_deadline:* 1,2 tcg 100  # comment\n"
                    "test selftest:sched_deadline:timing 1 icount 200\n"
                    "test client:* 2 tcg 60\n"
                    "backout prefix:backout-check 1 tcg 60\n")
        warnings = []
        entries = dltest.load_plan(f.name, "test", avail, warn=warnings.append)
        got = {(e["id"], e["cpus"], e["mode"]) for e in entries}
        self.assertEqual(got, {
            ("harness/smoke", 1, "tcg"), ("harness/smoke", 2, "tcg"), ("harness/smoke", 4, "tcg"),
            ("sched_deadline/abi", 1, "tcg"), ("sched_deadline/abi", 2, "tcg"),
            ("sched_deadline/timing", 1, "icount"), ("clients/chrt.sh", 2, "tcg")})
        groups = dltest.groups_of(entries)
        self.assertEqual([dltest.group_name(*k) for k in groups],
                         ["1cpu-tcg", "2cpu-tcg", "4cpu-tcg", "1cpu-icount"])
        back = dltest.load_plan(f.name, "backout", avail, warn=warnings.append)
        self.assertEqual([(e["id"], e["path"]) for e in back],
                         [("prefix/backout-check", "prefix/backout-check")])
        self.assertTrue(any("backout-check" in w for w in warnings))
        Path(f.name).unlink()

    def test_real_plan_parses(self):
        import dltest
        for suite in ("test", "backout"):
            dltest.load_plan(ROOT / "tests" / "plan", suite,
                             {k: {} for k in dltest.KINDS}, warn=lambda m: None)


@unittest.skipUnless(os.environ.get("DLTEST_E2E") == "1",
                     "set DLTEST_E2E=1 (make test-harness E2E=1) to boot a real guest")
class EndToEnd(unittest.TestCase):
    """Real boots: a failing test and a hung guest turn the run red."""

    def run_plan(self, plan_text, tmp):
        bz = os.environ.get("DLTEST_E2E_BZIMAGE") or next(
            (str(p) for p in (ROOT / "build/obj/series/arch/x86/boot/bzImage",
                              ROOT / "build/obj/upstream/arch/x86/boot/bzImage") if p.is_file()), None)
        if not bz or not (ROOT / "build/guest/base.cpio").is_file():
            self.skipTest("needs a built kernel and build/guest/base.cpio (make test first)")
        plan = Path(tmp) / "plan"
        plan.write_text(plan_text)
        env = dict(os.environ, DLTEST_BOOT_OVERHEAD="25")
        r = subprocess.run([str(ROOT / "scripts/run-tests"), "--bzimage", bz, "--flavour",
                            "upstream", "--arch", "x86_64", "--suite", "e2e", "--plan",
                            str(plan), "--results",
                            str(Path(tmp) / "results")], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        return r.returncode, r.stdout

    def test_failing_test_and_hung_boot(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, out = self.run_plan("e2e harness:smoke 1 tcg 20\n"
                                    "e2e harness:demo-fail 1 tcg 20\n"
                                    "e2e harness:demo-hang 2 tcg 5\n", tmp)
            self.assertEqual(rc, 1, out)
            self.assertIn("FAIL harness/demo-fail:fails_on_purpose @1cpu-tcg", out)
            self.assertIn("FAIL boot @2cpu-tcg: timed out", out)
            self.assertIn("FAIL boot @2cpu-tcg: missing end marker", out)
            self.assertTrue(out.rstrip().endswith("4 passed, 4 failed"), out)


if __name__ == "__main__":
    unittest.main()
