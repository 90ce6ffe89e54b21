"""tqconvert.renames: the names --rename collects for its tree-wide map,
as tqueue-rename.cocci's @mem and @var rules match them (each case below
was checked against spatch 1.1.1 with TQ_RENAME_COLLECT)."""

import unittest

import _path  # noqa: F401
import tqprep
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


def renamed(text, rmap, typed=frozenset(), kept_tasks=None, kept_members=None):
    """text with renames.edits() made, through tqprep.rewrite() as convert
    makes them in the copy coccinelle reads, and back (restore())."""
    toks = tqprep.scan(text)
    kept = renames.kept_starts(toks, kept_tasks or {}, kept_members or {})
    parsed, hidden = tqprep.hide(text, toks, kept_tasks=kept_tasks or {},
                                 kept_members=kept_members or {})
    todo = renames.edits(toks, renames.declared_tokens(None, toks), rmap, hidden, typed, kept)
    parsed, hidden = tqprep.rewrite(text, hidden, todo)
    out, problems = tqprep.restore(parsed, parsed, hidden)
    assert not problems, problems
    return out


MAP = {"fields": {"tqueue": "work", "tq": "work"}, "fields_blocked": {},
       "globals": {"poll_task": "poll_work"}, "globals_blocked": {}}


class Edits(unittest.TestCase):
    def test_members_accesses_and_globals(self):
        text = ("struct port {\n\tstruct tq_struct tqueue;\n\tint tq_count;\n};\n"
                "static struct tq_struct poll_task;\n"
                "#define KICK(p) schedule_task(&(p)->tqueue)\n"
                "/* poll_task and p->tqueue stay in a comment */\n"
                "void f(struct port *p)\n{\n\tchar *s = \"poll_task\";\n"
                "\tp->tqueue.data = p;\n\tschedule_task(&poll_task);\n"
                "\tx.tqueue = 1; struct poll_task *q; goto poll_task;\n}\n")
        want = text.replace("tq_struct tqueue", "tq_struct work").replace(
            "(p)->tqueue", "(p)->work").replace("p->tqueue.data", "p->work.data").replace(
            "x.tqueue", "x.work").replace("static struct tq_struct poll_task",
                                          "static struct tq_struct poll_work").replace(
            "(&poll_task)", "(&poll_work)")
        self.assertEqual(renamed(text, MAP), want)

    def test_members_left_to_the_rules(self):
        # a member of that name typed otherwise: the declarations and the
        # accesses are the rules' (which know types); variables are not
        text = ("struct a { struct tq_struct tq; };\n"
                "void f(struct a *p) { p->tq.data = &poll_task; }\n")
        self.assertEqual(renamed(text, MAP, typed={"tq"}),
                         text.replace("&poll_task", "&poll_work"))

    def test_columns_after_edits(self):
        text = "x\n\tpoll_task.tq = r->tq;\n"
        todo = [(13, 15, "work")]         # .tq -> .work: two columns on
        self.assertEqual(renames.columns(text, [text.index("r->tq") + 3], todo),
                         [(2, 21)])

    def test_a_member_named_as_a_variable_stays(self):
        # another structure's member of the variable's name is not the
        # variable: neither its declaration nor its accesses change
        text = ("struct stats { int poll_task; struct { long poll_task; } in; };\n"
                "static struct tq_struct poll_task;\n"
                "void f(struct stats *s) { s->poll_task++; schedule_task(&poll_task); }\n")
        want = text.replace("tq_struct poll_task", "tq_struct poll_work")
        self.assertEqual(renamed(text, MAP), want.replace("(&poll_task)", "(&poll_work)"))

    def test_kept_task_keeps_its_name(self):
        # tq is queued on a private queue that stays: its declaration is
        # hidden from coccinelle and its accesses keep the name, here by
        # structure and member, there by name
        text = ("struct req { struct tq_struct tq; };\nstruct dev { struct tq_struct tq; };\n"
                "void f(struct req *r, struct dev *d)\n{\n"
                "\tqueue_task(&r->tq, &my_queue);\n\tschedule_task(&d->tq);\n}\n")
        got = renamed(text, MAP, kept_members={("req", "tq"): "my_queue"})
        self.assertEqual(got, text.replace("struct dev { struct tq_struct tq; }",
                                           "struct dev { struct tq_struct work; }").replace(
            "&d->tq", "&d->work"))
        got = renamed(text, MAP, kept_tasks={"tq": "my_queue"})
        self.assertNotIn("->work", got)

    def test_hidden_constructs_move_with_the_edits(self):
        # an edit before a hidden construct on the same line changes its
        # offset, not what restore() puts back
        text = ("struct p { struct tq_struct tqueue; };\n"
                "void f(struct p *x) { x->tqueue.data = 0; __attribute__((a(1))) int y; }\n")
        self.assertEqual(renamed(text, MAP), text.replace("tqueue", "work"))


class Notes(unittest.TestCase):
    def test_said_by_the_map(self):
        text = ("struct port { struct tq_struct tqueue; struct tq_struct tq_x; };\n"
                "static struct tq_struct poll_task;\nstatic struct tq_struct other_task;\n")
        rmap = dict(MAP, fields_blocked={"tq_x": "'x_work' is taken"},
                    globals_blocked={"other_task": "a task of the private queue q, kept"})
        decl = renames.declared_tokens(text)
        got = [(k, i, ln) for k, i, ln, _ in renames.notes(decl, rmap, [])]
        self.assertEqual(got, [("conv", "rename_member", 1),
                               ("conflict", "rename_conflict", 1),
                               ("conv", "rename_variable", 2),
                               ("conflict", "rename_conflict", 3)])


if __name__ == "__main__":
    unittest.main()


class _E:
    def __init__(self, shown, text):
        self.shown, self.old = shown, text


class Habits(unittest.TestCase):
    def test_the_maintainers_names(self):
        import tqlib
        self.assertEqual([tqlib.new_name(n) for n in ("tqs", "immediate_bh", "poll_task",
                                                      "tty_tx_task_queue", "timer")],
                         ["work", "work", "poll_work", "tty_tx_work", None])
        self.assertEqual([tqlib.helper_name(n) for n in ("sa1100fb_schedule_task",
                                                         "wanpipe_queue_tq", "schedule_bh")],
                         ["sa1100fb_schedule_work", "wanpipe_queue_work", None])
        self.assertEqual(tqlib.flag_name("bh_active"), "work_active")
        self.assertIsNone(tqlib.flag_name("via_task_queue"))
        # a buffer head is no bottom half
        self.assertIsNone(tqlib.new_name("bh"))

    def test_routines_helpers_flags_and_what_stays(self):
        a = _E("a.c", "static void chdlc_bh(void *d) { clear_bit(0, &p->bh_active); }\n"
                      "static void do_x_bh(void) { run_task_queue(&tq_x); }\n"
                      "void x_schedule_task(void) {\n"
                      "\tif (!test_and_set_bit(0, &p->bh_active))\n"
                      "\t\tschedule_task(&p->tq);\n\tatomic_inc(&bh_count);\n}\n"
                      "void setup(void) { INIT_TQUEUE(&p->tq, chdlc_bh, p);\n"
                      "\tinit_bh(X_BH, do_x_bh); x_schedule_task(); }\n")
        b = _E("b.c", "void y_queue_task(void) { queue_task(&t, &tq_immediate); }\n"
                      "int y_queue_work;\n"
                      "struct tq_struct r = { routine: (void (*)(void *)) run_task_queue };\n")
        api = _E("include/linux/tqueue.h",
                 "static inline void run_task_queue(task_queue *list) { }\n")
        h = renames.habits([a, b, api])
        self.assertEqual(h["functions"], {"chdlc_bh": "chdlc_work",
                                          "x_schedule_task": "x_schedule_work"})
        self.assertEqual(h["flag_fields"], {"bh_active": "work_active"})
        self.assertEqual(h["flag_globals"], {})
        # its new name is taken: stays, and says why
        self.assertIn("y_queue_task", h["blocked"])
