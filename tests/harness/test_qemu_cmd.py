#!/usr/bin/env python3
"""The QEMU command lines of scripts/dltest.py: x86_64's stays as it was,
arm64's boots QEMU's virt machine with the same memory, CPUs and modes.
Run: make test-harness
"""

import os
import sys
import unittest
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import dltest  # noqa: E402


def opt(cmd, name):
    """The values that follow each occurrence of option NAME in CMD."""
    return [cmd[i + 1] for i, c in enumerate(cmd[:-1]) if c == name]


class QemuCmd(unittest.TestCase):
    def test_x86_64_unchanged(self):
        cmd = dltest.qemu_cmd("bz", "initrd", 1, "tcg", "series", "file:c.log", "file:k.log")
        self.assertEqual(cmd, [
            "qemu-system-x86_64", "-nodefaults", "-display", "none", "-no-reboot",
            "-accel", "tcg", "-m", dltest.MEMORY, "-smp", "1", "-cpu", "max",
            "-kernel", "bz", "-initrd", "initrd", "-append",
            "console=ttyS0 panic=-1 dltest.kernel=series dltest.cpus=1 dltest.mode=tcg",
            "-serial", "file:c.log", "-serial", "file:k.log"])
        ic = dltest.qemu_cmd("bz", "initrd", 1, "icount", "series", "file:c", "file:k")
        self.assertEqual(opt(ic, "-cpu"), ["max,rdrand=off,rdseed=off"])
        self.assertEqual(opt(ic, "-icount"), ["shift=0,sleep=off"])

    def test_arm64_virt_machine(self):
        cmd = dltest.qemu_cmd("Image", "initrd", 2, "tcg", "series",
                              "file:/r/console.log", "file:/r/ktap.log", arch="arm64")
        self.assertEqual(cmd[0], "qemu-system-aarch64")
        self.assertIn("-no-reboot", cmd)       # reboot -f (PSCI) ends QEMU
        self.assertEqual(opt(cmd, "-M"), ["virt,gic-version=3"])
        self.assertEqual(opt(cmd, "-cpu"), ["cortex-a57"])
        self.assertEqual(opt(cmd, "-m"), [dltest.MEMORY])
        self.assertEqual(opt(cmd, "-smp"), ["2"])
        self.assertEqual(opt(cmd, "-kernel"), ["Image"])
        append = opt(cmd, "-append")[0].split()
        self.assertIn("console=ttyAMA0", append)
        self.assertNotIn("console=ttyS0", append)
        self.assertIn("dltest.cpus=2", append)
        # One UART: the console.  KTAP goes to a virtio console (hvc0).
        self.assertEqual(opt(cmd, "-serial"), ["file:/r/console.log"])
        self.assertEqual(opt(cmd, "-chardev"), ["file,id=dlout,path=/r/ktap.log"])
        self.assertEqual(opt(cmd, "-device"), ["virtio-serial-device",
                                               "virtconsole,chardev=dlout"])

    def test_arm64_icount(self):
        cmd = dltest.qemu_cmd("Image", "i", 1, "icount", "upstream", "file:c", "file:k",
                              arch="arm64")
        self.assertEqual(opt(cmd, "-icount"), ["shift=0,sleep=off"])
        self.assertEqual(opt(cmd, "-cpu"), ["cortex-a57"])   # no x86 CPU flags
        self.assertNotIn("rdrand", " ".join(cmd))
        self.assertIn("dltest.mode=icount", opt(cmd, "-append")[0])

    def test_arm64_rcu_stall_rule_and_paths(self):
        with mock.patch.object(os, "cpu_count", return_value=2):
            wide = dltest.qemu_cmd("Image", "i", 8, "tcg", "series", "mon:stdio",
                                   "file:/a,b/out.log", arch="arm64")
            narrow = dltest.qemu_cmd("Image", "i", 2, "tcg", "series", "mon:stdio",
                                     "file:/a/out.log", arch="arm64")
        self.assertIn("rcupdate.rcu_cpu_stall_timeout=60", opt(wide, "-append")[0])
        self.assertNotIn("rcu_cpu_stall_timeout", opt(narrow, "-append")[0])
        self.assertEqual(opt(wide, "-serial"), ["mon:stdio"])
        # A comma in a -chardev path is doubled (QEMU's option syntax).
        self.assertEqual(opt(wide, "-chardev"), ["file,id=dlout,path=/a,,b/out.log"])

    def test_arm64_asym_boot_gets_its_device_tree(self):
        cmd = dltest.qemu_cmd("Image", "i", 4, "asym", "series", "file:c", "file:k",
                              arch="arm64", dtb="/r/asym.dtb")
        self.assertEqual(opt(cmd, "-dtb"), ["/r/asym.dtb"])
        self.assertEqual(opt(cmd, "-M"), [dltest.ARM64_MACHINE])
        self.assertIn("dltest.mode=asym", opt(cmd, "-append")[0])
        self.assertNotIn("-icount", cmd)
        plain = dltest.qemu_cmd("Image", "i", 4, "tcg", "series", "file:c", "file:k",
                                arch="arm64")
        self.assertNotIn("-dtb", plain)
        # Half big (rounded up), half little; every CPU gets a value.
        self.assertEqual(dltest.asym_capacities(4), [1024, 1024, 512, 512])
        self.assertEqual(dltest.asym_capacities(5), [1024, 1024, 1024, 512, 512])

    def test_late_boot_brings_up_half_the_cpus(self):
        for arch in ("x86_64", "arm64"):
            cmd = dltest.qemu_cmd("k", "i", 4, "late", "series", "file:c", "file:k",
                                  arch=arch)
            append = opt(cmd, "-append")[0]
            self.assertIn("maxcpus=2", append.split())
            self.assertIn("dltest.mode=late", append)
            self.assertNotIn("-icount", cmd)
            plain = dltest.qemu_cmd("k", "i", 4, "tcg", "series", "file:c", "file:k",
                                    arch=arch)
            self.assertNotIn("maxcpus", opt(plain, "-append")[0])
        self.assertEqual(dltest.late_boot_cpus(2), 1)
        self.assertEqual(dltest.late_boot_cpus(5), 2)

    def test_guest_dirs_and_results_names_per_arch(self):
        with mock.patch.dict(os.environ, {"GUEST_DIR": ""}):
            self.assertEqual(dltest.guest_dir("x86_64"), ROOT / "build" / "guest")
            self.assertEqual(dltest.guest_dir("arm64"), ROOT / "build" / "guest-arm64")
        self.assertEqual(dltest.arch_label("x86_64"), "")
        self.assertEqual(dltest.arch_label("arm64"), "-arm64")


if __name__ == "__main__":
    unittest.main()
