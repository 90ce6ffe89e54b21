"""tqconvert.inputs: the C files found under the paths given, the rest
copied, and what a file includes."""

import os
import tempfile
import unittest

import _path  # noqa: F401
from tqconvert import inputs


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


class Collect(unittest.TestCase):
    def test_c_files_copies_and_problems(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "t/a.c", "int a;\n")
            write(d, "t/inc/a.h", "int b;\n")
            write(d, "t/Makefile", "all:\n")
            write(d, "t/a.o", "")
            write(d, "t/.hidden.c", "")
            lone = write(d, "notc.txt", "")
            entries, copies, problems = inputs.collect(
                [os.path.join(d, "t"), lone, os.path.join(d, "missing")], None)
            self.assertEqual([e.rel for e in entries], ["a.c", "inc/a.h"])
            self.assertEqual([rel for _, rel in copies], ["Makefile"])
            self.assertEqual(len(problems), 2)
            self.assertIn("not a C file", problems[0])
            self.assertIn("no such file", problems[1])

    def test_a_file_named_twice_is_seen_once(self):
        with tempfile.TemporaryDirectory() as d:
            a = write(d, "a.c", "")
            entries, _, _ = inputs.collect([a, d], None)
            self.assertEqual(len(entries), 1)

    def test_binary_is_not_c(self):
        self.assertFalse(inputs.is_c_text(b"ab\0c"))
        self.assertTrue(inputs.is_c_text(b"int x;\n"))


class Includes(unittest.TestCase):
    def test_reach_is_transitive_and_ends_cycles(self):
        with tempfile.TemporaryDirectory() as d:
            inc = os.path.join(d, "include")
            write(d, "include/linux/x.h", '#include <linux/y.h>\n')
            write(d, "include/linux/y.h", '#include <linux/x.h>\n')
            c = write(d, "drv/a.c", '#include <linux/x.h>\n#include "local.h"\n')
            write(d, "drv/local.h", "")
            seen = inputs.Includes([inc], [])
            with open(c) as f:
                text = f.read()
            got = {os.path.relpath(p, d) for p in seen.reach(os.path.realpath(c), text)}
            self.assertEqual(got, {"include/linux/x.h", "include/linux/y.h",
                                   "drv/local.h"})

    def test_kernel_tree_brings_its_own_headers(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "include/linux/kernel.h", "")
            c = write(d, "drivers/a.c", "")
            found, kernel = inputs.tree_includes(c)
            self.assertTrue(kernel)
            self.assertEqual(found, [os.path.join(os.path.abspath(d), "include")])
            dirs = inputs.include_dirs([c], [])
            self.assertFalse(any(x.endswith(os.path.join("shim", "include")) for x in dirs))


if __name__ == "__main__":
    unittest.main()
