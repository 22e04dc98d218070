#!/usr/bin/env python3
"""The verdict of make test-system (scripts/dltest.py system_verdict): a
check that passed only on the rerun of its failed tests counts as passed
and is listed apart; a failed check names the tests that failed; a boot
that never ended or a kernel report fails."""

import contextlib
import io
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import dltest  # noqa: E402

BEGIN = "##### dltest-system begin release=6.12.118-sched-dl-rt cpus=2"
END = "##### dltest-system end"


def verdict(ktap, console="[    0.000000] Linux version 6.12\n"):
    with tempfile.TemporaryDirectory() as d:
        Path(d, "ktap.log").write_text("\n".join(ktap) + "\n")
        Path(d, "console.log").write_text(console)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = dltest.system_verdict(Path(d), False)
    return rc, out.getvalue()


class SystemVerdict(unittest.TestCase):
    def test_rerun_passes_and_is_listed(self):
        rc, out = verdict([BEGIN, "ok 1 kselftest:abi",
                           "# dltest-rerun-begin kselftest:events trace.x",
                           "# dltest-rerun-end kselftest:events trace.x ok exit=0",
                           "ok 2 kselftest:events # RERUN trace.x", END])
        self.assertEqual(rc, 0)
        self.assertIn("  RERUN kselftest:events # RERUN trace.x", out)
        self.assertTrue(out.rstrip().endswith("4 passed, 0 failed"), out)

    def test_failed_check_names_its_tests(self):
        rc, out = verdict([BEGIN, "ok 1 kselftest:abi",
                           "not ok 2 kselftest:events # exit status 1 (failed: trace.x global.y)",
                           END])
        self.assertEqual(rc, 1)
        self.assertIn("  FAIL kselftest:events # exit status 1 (failed: trace.x global.y)", out)
        self.assertNotIn("RERUN", out)
        self.assertTrue(out.rstrip().endswith("3 passed, 1 failed"), out)

    def test_kernel_report_fails(self):
        rc, out = verdict([BEGIN, "ok 1 kselftest:abi", END],
                          console="[    1.000000] Linux version 6.12\n"
                                  "[    2.000000] BUG: kernel NULL pointer dereference, "
                                  "address: 0000000000000000\n")
        self.assertEqual(rc, 1)
        self.assertIn("  FAIL system:console-clean: kernel report on the console", out)
        self.assertIn("BUG: kernel NULL pointer dereference", out)

    def test_unfinished_boot_fails(self):
        rc, out = verdict([BEGIN, "ok 1 kselftest:abi"])
        self.assertEqual(rc, 1)
        self.assertIn("system:boot: the checks did not run to their end", out)


if __name__ == "__main__":
    unittest.main()
