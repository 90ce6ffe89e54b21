"""tqconvert.compat: which lines only a kernel before the workqueue
compiles."""

import unittest

import _path  # noqa: F401

from tqconvert import compat


class TargetTakes(unittest.TestCase):
    def test_version_tests_against_2_5_41(self):
        takes = compat.target_takes
        self.assertIs(takes("LINUX_VERSION_CODE < 0x02032b"), False)
        self.assertIs(takes("(LINUX_VERSION_CODE < 0x02032b)"), False)
        self.assertIs(takes("LINUX_VERSION_CODE >= KERNEL_VERSION(2,4,0)"), True)
        self.assertIs(takes("LINUX_VERSION_CODE < KERNEL_VERSION(2,6,0)"), True)
        self.assertIs(takes("KERNEL_VERSION(2,3,0) > LINUX_VERSION_CODE"), False)
        self.assertIs(takes("LINUX_VERSION_CODE <= 0x020529"), True)
        self.assertIs(takes("LINUX_VERSION_CODE < 0x020529"), False)

    def test_other_conditions(self):
        takes = compat.target_takes
        self.assertIs(takes(" 0"), False)
        self.assertIs(takes("(1)"), True)
        self.assertIsNone(takes("00x"))
        self.assertIsNone(takes("defined(CONFIG_FOO)"))
        self.assertIs(takes("defined(FOO) && LINUX_VERSION_CODE < 0x020100"), False)
        self.assertIsNone(takes("defined(FOO) && LINUX_VERSION_CODE >= 0x020100"))
        self.assertIs(takes("LINUX_VERSION_CODE > 0x020100 || defined(X)"), True)
        self.assertIsNone(takes("LINUX_VERSION_CODE < 0x020100 || defined(X)"))
        self.assertIsNone(takes("LINUX_VERSION_CODE < 0x020100 && A || B"))


class OldKernelLines(unittest.TestCase):
    def test_branches(self):
        text = "\n".join([
            "a",                                                # 1
            "#if (LINUX_VERSION_CODE < 0x02032b)",              # 2
            "#define tasklet_struct tq_struct",                 # 3 old
            "#else",                                            # 4
            "x",                                                # 5
            "#endif",                                           # 6
            "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,4,0)",  # 7
            "new",                                              # 8
            "#elif LINUX_VERSION_CODE >= 0x020100",             # 9
            "mid",                                              # 10 old
            "#else",                                            # 11
            "old \\",                                           # 12 old
            "  continued",                                      # 13 old
            "#endif",                                           # 14
            "#ifdef FOO",                                       # 15
            "#if LINUX_VERSION_CODE < 0x020100",                # 16
            "#if X",                                            # 17 old
            "deep",                                             # 18 old
            "#endif",                                           # 19 old
            "#endif",                                           # 20
            "f",                                                # 21
            "#endif",                                           # 22
        ])
        self.assertEqual(sorted(compat.old_kernel_lines(text)), [3, 10, 12, 13, 17, 18, 19])

    def test_unknown_conditions_hide_nothing(self):
        text = "#ifdef TWO_ZERO\nqueue_task(&t, &tq_immediate);\n#endif\n"
        self.assertEqual(compat.old_kernel_lines(text), set())


if __name__ == "__main__":
    unittest.main()
