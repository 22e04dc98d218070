#!/usr/bin/env python3
"""The front door's own tests: scripts/setup on a machine where nothing is
installed yet must go on installing, and every way it stops must say why.

apt-get, apt-cache, dpkg-query and sudo are replaced by stubs on PATH that
act out a first run: dpkg-query knows no package (and fails, as the real one
does), apt-get succeeds, apt-cache offers the pinned version.  The tarball
path points nowhere, so setup stops at the first check that needs the real
package, with its message; it must get that far.  The stubs never touch the
machine.  `make fresh-check` checks the same path for real, in a bare
Debian 12 root.
Run: make test-harness
"""

import os
import stat
import subprocess
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "scripts" / "setup"
PINNED = (ROOT / "config" / "base.version").read_text().strip()

STUBS = {
    # A package that is not installed: no output on stdout, status 1.
    "dpkg-query": 'echo "dpkg-query: no packages found matching $3" >&2; exit 1',
    "apt-get": 'echo "apt-get stub: $*" >>"$STUB_LOG"; exit 0',
    "apt-cache": f'''case $1 in
madison) echo " linux-source-6.12 | {PINNED} | http://stub bookworm/main all Packages" ;;
policy) printf 'linux-source-6.12:\\n  Installed: (none)\\n  Candidate: {PINNED}\\n' ;;
esac''',
    "sudo": '"$@"',
}


class SetupFirstRun(unittest.TestCase):
    def run_setup(self, extra_stubs=None, env_extra=None):
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir = Path(tmp) / "bin"
            bin_dir.mkdir()
            for name, body in {**STUBS, **(extra_stubs or {})}.items():
                f = bin_dir / name
                f.write_text("#!/bin/bash\n" + body + "\n")
                f.chmod(f.stat().st_mode | stat.S_IXUSR)
            env = dict(os.environ,
                       PATH=f"{bin_dir}:{os.environ['PATH']}",
                       STUB_LOG=str(Path(tmp) / "apt.log"),
                       LOG_DIR=str(Path(tmp) / "logs"),
                       BASE_TARBALL=str(Path(tmp) / "absent.tar.xz"),
                       UPSTREAM_SRC=str(Path(tmp) / "src"))
            env.update(env_extra or {})
            r = subprocess.run([str(SETUP)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=120)
            apt_log = Path(env["STUB_LOG"])
            calls = apt_log.read_text() if apt_log.exists() else ""
            return r.returncode, r.stdout, calls

    def test_absent_packages_are_installed_not_fatal(self):
        rc, out, calls = self.run_setup()
        # It asked apt for the missing build dependencies and the kernel
        # source at the pinned version ...
        self.assertIn("install", calls, out)
        self.assertIn(f"linux-source-6.12={PINNED}", calls, out)
        # ... and stopped only where the (stubbed) package left no tarball,
        # saying so: never a silent status 1.
        self.assertNotEqual(rc, 0, out)
        self.assertIn("absent.tar.xz missing after installing linux-source-6.12", out)

    def test_failing_apt_says_what_to_do(self):
        rc, out, _ = self.run_setup(
            extra_stubs={"apt-get": 'echo "E: stub failure" >&2; exit 100'})
        self.assertNotEqual(rc, 0, out)
        self.assertRegex(out, r"setup: error: .*apt-get.*failed", out)

    def test_no_apt_says_debian(self):
        # A machine without apt-get/dpkg-query (another distribution).
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir = Path(tmp) / "bin"
            bin_dir.mkdir()
            # Only the tools setup needs before its apt check.
            for tool in ("bash", "cat", "cut", "dirname", "date", "id", "mkdir",
                         "basename", "grep", "sed"):
                src = subprocess.run(["bash", "-c", f"command -v {tool}"],
                                     stdout=subprocess.PIPE, text=True).stdout.strip()
                if src:
                    (bin_dir / tool).symlink_to(src)
            env = dict(os.environ, PATH=str(bin_dir), LOG_DIR=str(Path(tmp) / "logs"))
            r = subprocess.run([str(SETUP)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=60)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("Debian 12", r.stdout)
        self.assertIn("apt-get", r.stdout)


class ErrTrap(unittest.TestCase):
    """lib.sh names any unexpected failure of a `set -e` script."""

    @staticmethod
    def run_script(body):
        """Runs BODY as a `set -e` script that sources lib.sh."""
        script = f'set -euo pipefail\nsource "{ROOT}/scripts/lib.sh"\n{body}'
        return subprocess.run(["bash", "-c", script], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)

    def test_unexpected_failure_is_named(self):
        r = self.run_script('x=$(false | cat)\necho not reached\n')
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertNotIn("not reached", r.stdout)
        self.assertRegex(r.stdout, r"error: `x=\$\(false \| cat\)` failed with status 1")

    def test_expected_failures_stay_quiet(self):
        r = self.run_script('if false; then :; fi\nfalse || true\n'
                            '[ -n "$(false)" ] || echo fine\n')
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(r.stdout.strip(), "fine")


if __name__ == "__main__":
    unittest.main()
