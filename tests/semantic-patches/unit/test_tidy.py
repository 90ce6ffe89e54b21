"""tqconvert.tidy: spatch's leftovers cleaned in the lines it wrote only."""

import unittest

import _path  # noqa: F401
from tqconvert.tidy import tidy


class Tidy(unittest.TestCase):
    def test_whitespace_line_left_by_a_removal_goes(self):
        old = "void f(void)\n{\n\ta();\n\tb();\n}\n"
        new = "void f(void)\n{\n\ta();\n\t\n}\n"
        self.assertEqual(tidy(old, new), "void f(void)\n{\n\ta();\n}\n")

    def test_the_authors_own_blank_lines_stay(self):
        old = "int a;\n\t\nint b;\n"
        new = "long a;\n\t\nint b;\n"
        self.assertEqual(tidy(old, new), new)

    def test_a_wrapped_call_that_fits_is_joined(self):
        old = "\tINIT_TQUEUE(&ct->tq, (void (*)(void *)) f, ct);\n"
        new = "\tINIT_WORK(&ct->tq,\n\t\t  f,\n\t\t  ct);\n"
        self.assertEqual(tidy(old, new), "\tINIT_WORK(&ct->tq, f, ct);\n")

    def test_the_comment_spatch_adds_in_a_define_does_not_end_it(self):
        c = "/* was an immediate bottom half: this work now runs in process context */"
        old = ("#define KICK(t) do { queue_task(t, &tq_immediate); mark_bh(IMMEDIATE_BH); }"
               " while (0)\n#define K2(t) \\\n\tdo { \\\n\t\tqueue_task(t, &tq_immediate); \\\n"
               "\t\tmark_bh(IMMEDIATE_BH); \\\n\t} while (0)\n")
        new = ("#define KICK(t) do { %s\n\tschedule_work(t); } while (0)\n"
               "#define K2(t) \\\n\tdo { \\\n\t\t%s\n\tschedule_work(t); \\\n"
               "\t} while (0)\n" % (c, c))
        self.assertEqual(tidy(old, new), "#define KICK(t) do { schedule_work(t); } while (0)\n"
                         "#define K2(t) \\\n\tdo { \\\n\t\tschedule_work(t); \\\n"
                         "\t} while (0)\n")
        # outside a #define the comment stays
        body = "void f(void)\n{\n\t%s\n\tschedule_work(&w);\n}\n" % c
        self.assertEqual(tidy("void f(void)\n{\n}\n", body), body)

    def test_unchanged(self):
        self.assertEqual(tidy("a\n", "a\n"), "a\n")


if __name__ == "__main__":
    unittest.main()
