"""tqconvert.prepare, spatch, residue, report and output: the parts of
each stage that do not need spatch to run."""

import os
import tempfile
import unittest

import _path  # noqa: F401
from tqconvert import output, prepare, report, residue, spatch
from tqconvert.inputs import Entry


def entry(text, name="a.c"):
    e = Entry(name, name, name, 0)
    e.orig = e.old = e.new = text
    return e


class Prepare(unittest.TestCase):
    def test_only_the_stages_a_file_needs(self):
        e = entry("void f(void) { schedule_task(&t); }\n")
        self.assertEqual(prepare.stage_set(e, ["tqueue-sync.cocci", "tqueue-calls.cocci"]),
                         ("tqueue-calls.cocci",))
        e = entry("int x;\n")
        self.assertEqual(prepare.stage_set(e, ["tqueue-calls.cocci"]), ("tqueue-types.cocci",))

    def test_declared_work_is_of_concern(self):
        names = prepare.concern_names("static struct tq_struct my_tq;\n", set())
        self.assertIn("my_tq", names)
        self.assertNotIn("int", names)


class Spatch(unittest.TestCase):
    def test_chunks_bounded_and_by_directory(self):
        with tempfile.TemporaryDirectory() as d:
            es = []
            for i in range(10):
                e = entry("", "d%d/f%d.c" % (i % 2, i))
                e.work, e.size = os.path.join(d, "%d.c" % i), 100
                es.append(e)
            chunks = spatch.make_chunks(es, 2, d, [0])
            self.assertEqual(sum(len(c.entries) for c in chunks), 10)
            self.assertTrue(all(len(c.entries) <= 3 for c in chunks))
            self.assertTrue(all(len({os.path.dirname(e.src) for e in c.entries}) <= 2
                                for c in chunks))

    def test_parse_errors_of_the_file_not_its_headers(self):
        e = entry("")
        e.work = "/w/1.c"
        text = ("HANDLING: /w/1.c\n"
                'File "/w/x.h", line 3, column 0\nBAD:!!!!! in header\n'
                'File "/w/1.c", line 7, column 2\nBAD:!!!!! x = (y\n')
        self.assertEqual(spatch.parse_errors(text, {"/w/1.c": e}), {e: [(7, "x = (y")]})

    def test_combined_patch_declares_every_virtual(self):
        with tempfile.TemporaryDirectory() as d:
            path = spatch.combine(("tqueue-calls.cocci",), os.path.join(d, "c.cocci"))
            text = open(path).read()
            self.assertIn("virtual rename\n", text)
            self.assertIn("tqueue-calls.cocci", text)
            self.assertNotIn("tqueue-init.cocci", text)


class Residue(unittest.TestCase):
    def test_every_legacy_line_is_listed_once(self):
        e = entry("#include <linux/tqueue.h>\nvoid f(void)\n{\n\tschedule_task(&t);\n}\n")
        residue.token_residue(e)
        self.assertEqual(sorted(line for line, _, _ in e.residue), [1, 4])

    def test_tq_disk_does_not_block_the_file(self):
        e = entry("new\n")
        e.orig = "old\n"
        e.residue = [(3, "residue_tq_disk", "tq_disk: ..."),
                     (5, "residue_queue_task", "queue_task() left")]
        self.assertEqual(residue.blockers(e), [(5, "queue_task() left")])

    def test_a_compat_define_of_an_old_name_does_not_block_the_file(self):
        e = entry("#define queue_task queue_task_irq_off\nschedule_work(&w);\n")
        e.orig = "#define queue_task queue_task_irq_off\nschedule_task(&w);\n"
        e.residue = [(1, "residue_compat_define", "#define queue_task: ..."),
                     (2, "residue_queue_task", "queue_task() left")]
        self.assertEqual(residue.blockers(e), [(2, "queue_task() left")])
        self.assertTrue(residue._defines(e.new.splitlines()[0], "queue_task"))
        self.assertFalse(residue._defines(e.new.splitlines()[1], "schedule_work"))
        self.assertFalse(residue._defines("#define MXQ_TASK() queue_task(x)", "queue_task"))

    def test_all_or_none_leaves_the_file_as_it_was(self):
        e = entry("work_t t;\nqueue_task(&t, &q);\n")
        e.orig = "struct tq_struct t;\nqueue_task(&t, &q);\n"
        e.residue = [(2, "residue_queue_task", "queue_task() left")]
        residue.all_or_none(e)
        self.assertEqual(e.new, e.orig)
        self.assertEqual(e.blocked, [(2, "queue_task() left")])
        self.assertTrue(any(r[0] == 1 and r[1] == "unconverted" for r in e.residue))

    def test_a_blocked_line_is_listed_once_with_the_rules_reason(self):
        e = entry("int a;\nqueue_task(&t, &tq_immediate);\n")
        e.orig = "int b;\nqueue_task(&t, &tq_immediate);\n"
        e.residue = [(2, "residue_tq_immediate",
                      "tq_immediate left: use schedule_work() (runs in process context)"),
                     (2, "residue_tq_immediate", "queue_task(&t, &tq_immediate) and no mark_bh")]
        residue.all_or_none(e)
        self.assertEqual(e.blocked, [(2, "queue_task(&t, &tq_immediate) and no mark_bh")])
        self.assertEqual([r[0] for r in e.residue if r[1] == "all_or_none"], [2])

    def test_a_blocker_quotes_the_line_as_written(self):
        e = entry("struct s { work_t work; };\n\tqueue_task(&bcs->work, &tq_immediate);\n")
        e.orig = "struct s { struct tq_struct tqueue; };\n" \
            "\tqueue_task(&bcs->tqueue, &tq_immediate);\n"
        e.residue = [(2, "residue_tq_immediate", "queue_task(&bcs->work, &tq_immediate): by "
                      "hand, schedule_work(&bcs->work), the work of it")]
        residue.all_or_none(e)
        self.assertEqual(e.blocked, [(2, "queue_task(&bcs->tqueue, &tq_immediate): by hand, "
                                      "schedule_work(&bcs->tqueue), the work of it")])


class Report(unittest.TestCase):
    def test_line_map_to_the_old_text(self):
        where = report.line_map("a\nb\nc\n", "a\nx\ny\nb\nc\n")
        self.assertEqual([where(n) for n in (1, 4, 5)], [1, 2, 3])

    def test_tq_timer_task_become_work_is_switched(self):
        e = entry("void f(void) { schedule_delayed_work(&t, 1); }\n")
        e.old = "void f(void) { queue_task(&t, &tq_timer); }\n"
        self.assertEqual(report.switched(e), [(1, "&t", "tq_timer")])


class Output(unittest.TestCase):
    def test_all_or_nothing_written(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a"), os.path.join(d, "b")
            open(a, "w").write("old")
            w = output.Writer(d)
            w.stage(a, b"new")
            w.stage(b, b"B")
            self.assertEqual(open(a).read(), "old")
            w.abort()
            self.assertEqual(sorted(os.listdir(d)), ["a", "journal"])
            w.stage(a, b"new")
            w.commit()
            w.close()
            self.assertEqual(open(a).read(), "new")


if __name__ == "__main__":
    unittest.main()
