"""tqconvert.renames: the names --rename collects for its tree-wide map,
as tqueue-rename.cocci's @mem and @var rules match them (each case below
was checked against spatch 1.1.1 with TQ_RENAME_COLLECT)."""

import unittest

import _path  # noqa: F401
from tqconvert import renames


def names(text):
    return sorted((k, n) for k, n, _ in renames.declared(text))


class Declared(unittest.TestCase):
    def test_file_scope_variables(self):
        text = ("extern struct tq_struct ext_tq;\n"
                "static struct tq_struct st_tq;\n"
                "struct tq_struct a_tq, b_tq;\n"
                "struct tq_struct init_tq = { routine: 0 };\n"
                "struct tq_struct arr_tq[2];\n"
                "struct tq_struct *ptr_tq;\n"
                "typedef struct tq_struct my_tq;\n"
                "static DECLARE_WORK(dw_tq, f, 0);\n")
        self.assertEqual(names(text), [("global", n) for n in
                                       ("a_tq", "b_tq", "dw_tq", "ext_tq", "init_tq",
                                        "st_tq")])

    def test_members_of_lone_definitions_only(self):
        text = ("struct outer {\n\tint x;\n\tstruct tq_struct o_tq;\n"
                "\tstruct { struct tq_struct nested_tq; } in;\n"
                "\tstruct tq_struct m1_tq, m2_tq;\n\tstruct tq_struct arr_tq[2];\n};\n"
                "typedef struct { struct tq_struct td_tq; } tdef_t;\n"
                "union u { struct tq_struct u_tq; int y; };\n"
                "typedef struct x { struct tq_struct two_tq; } X, *PX;\n"
                "struct y { struct tq_struct var_tq; } yvar;\n")
        self.assertEqual(names(text), [("member", n) for n in
                                       ("m1_tq", "m2_tq", "o_tq", "td_tq", "u_tq")])

    def test_locals_are_not_collected(self):
        text = ("static void f(void)\n{\n\tstruct tq_struct loc_tq;\n"
                "\tstruct s { struct tq_struct s_tq; } sv;\n}\n"
                "struct tq_struct after_tq;\n")
        self.assertEqual(names(text), [("global", "after_tq")])

    def test_conditionals(self):
        text = ("#ifdef FOO\nstatic struct tq_struct a_tq;\n#else\n"
                "static struct tq_struct b_tq;\n#endif\n"
                "#if 1\nstatic struct tq_struct c_tq;\n#else\n"
                "static struct tq_struct d_tq;\n#endif\n"
                "struct q {\n#ifdef X\n\tstruct tq_struct e_tq;\n#else\n"
                "\tstruct tq_struct f_tq;\n#endif\n};\n"
                "#if 0\n#ifdef Y\n#else\n#endif\nstruct tq_struct g_tq;\n"
                "#elif defined(Z)\nstruct tq_struct h_tq;\n#endif\n")
        self.assertEqual(names(text), [("global", "a_tq"), ("global", "b_tq"),
                                       ("global", "c_tq"), ("global", "h_tq"),
                                       ("member", "e_tq"), ("member", "f_tq")])

    def test_braces_counted_in_the_first_branch(self):
        # aha152x.c's setup(): an `if (...) {` in each branch of an #if
        text = ("void setup(int n)\n{\n#if defined(DEBUG)\n\tif (n > 9) {\n\t\tn++;\n"
                "#else\n\tif (n > 8) {\n#endif\n\t\treturn;\n\t}\n}\n"
                "static struct tq_struct late_tq;\n")
        self.assertEqual(names(text), [("global", "late_tq")])

    def test_lines(self):
        self.assertEqual(renames.declared("\n\nstruct tq_struct x_tq;\n"),
                         [("global", "x_tq", 3)])


class Collect(unittest.TestCase):
    def test_new_names_and_conflicts(self):
        text = ("struct port { struct tq_struct tqueue; int work; };\n"
                "struct dev { struct tq_struct tq_hangup; };\n"
                "static struct tq_struct timer_task;\n"
                "static struct tq_struct plain;\n"
                "static int timer_work;\n")
        got = {(k, o): (n, bool(w)) for k, o, n, w in renames.collect(text)}
        self.assertEqual(got, {("member", "tqueue"): ("work", True),
                               ("member", "tq_hangup"): ("hangup_work", False),
                               ("global", "timer_task"): ("timer_work", True)})


if __name__ == "__main__":
    unittest.main()
