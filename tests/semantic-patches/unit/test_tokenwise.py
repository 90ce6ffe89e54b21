"""tqconvert.tokenwise: the conversion made on tokens."""

import unittest

import _path  # noqa: F401
import tqprep
from tqconvert import tokenwise


def convert(code, **kw):
    toks = tqprep.scan(code)
    edits, left, moved = tokenwise.rewrite(code, toks, 0, len(toks), **kw)
    return tqprep._splice(code, sorted(set(edits))), left, moved


class Rewrite(unittest.TestCase):
    def test_calls_types_and_a_set_up_by_hand(self):
        code = ("\tstruct tq_struct *t = &p->tq;\n\tINIT_LIST_HEAD(&p->tq.list);\n"
                "\tp->tq.sync = 0;\n\tp->tq.routine = (void (*)(void *)) f;\n"
                "\tp->tq.data = (void *) p;\n\tschedule_task(t);\n\tflush_scheduled_tasks();\n")
        got, left, moved = convert(code)
        self.assertEqual(got, "\tstruct work_struct *t = &p->tq;\n"
                              "\tINIT_WORK(&p->tq, (void (*)(void *)) f, p);\n"
                              "\tschedule_work(t);\n\tflush_scheduled_work();\n")
        self.assertEqual((left, moved), ([], []))

    def test_queues_and_the_immediate_mark(self):
        code = ("\tqueue_task(&a, &tq_immediate);\n\tmark_bh(IMMEDIATE_BH);\n"
                "\tqueue_task(&b, &tq_timer);\n\tqueue_task(&c, &tq_scheduler);\n"
                "\tqueue_task(&d, &tq_mine);\n")
        got, left, moved = convert(code)
        self.assertEqual(got, "\tschedule_work(&a);\n\tschedule_delayed_work(&b, 1);\n"
                              "\tschedule_work(&c);\n\tqueue_task(&d, &tq_mine);\n")
        self.assertEqual([(q, t) for _, q, t in moved],
                         [("tq_immediate", "&a"), ("tq_timer", "&b"), ("tq_scheduler", "&c")])
        # a private queue is the residue check's, not a hand edit of this one
        self.assertEqual(left, [])

    def test_an_unmarked_immediate_queue_and_a_lone_routine_are_left_with_the_edit(self):
        code = "\tqueue_task(&a, &tq_immediate);\n\tp->tq.routine = g;\n"
        got, left, moved = convert(code, immediate=False, drop_marks=False)
        self.assertEqual(got, code)
        self.assertIn("by hand, schedule_work(&a)", left[0][1])
        self.assertIn("by hand, p->tq.func", left[1][1])

    def test_a_routine_re_pointed_on_work_set_up_in_the_file_is_func(self):
        code = "\tINIT_WORK(&s->tq_task, f, s);\n\ts->tq_task.routine = g;\n"
        got, left, _ = convert(code)
        self.assertEqual(got, "\tINIT_WORK(&s->tq_task, f, s);\n\ts->tq_task.func = g;\n")
        self.assertEqual(left, [])

    def test_kept_tokens_are_skipped(self):
        code = "\tINIT_TQUEUE(&kept, f, 0);\n\tINIT_TQUEUE(&w, f, 0);\n"
        toks = tqprep.scan(code)
        edits, _, _ = tokenwise.rewrite(code, toks, 0, len(toks), skip={0})
        self.assertEqual(tqprep._splice(code, sorted(edits)),
                         "\tINIT_TQUEUE(&kept, f, 0);\n\tINIT_WORK(&w, f, 0);\n")

    def test_line_shift(self):
        text = "a\nb\nc\nd\ne\n"
        # b and c become one line: d moves up, a stays, c lands on b's line
        shift = tokenwise._line_shift(text, [(2, 6, "x\n")])
        self.assertEqual([shift(n) for n in (1, 2, 3, 4, 5)], [1, 2, 2, 3, 4])

    def test_define_bodies(self):
        code = "#define A(x) \\\n\tqueue_task(x, &tq_timer)\n#define B 1\nint y;\n"
        toks = tqprep.scan(code)
        bodies = [" ".join(t.val for t in toks[lo:hi]) for lo, hi in
                  tokenwise.define_bodies(toks)]
        self.assertEqual(bodies, ["queue_task ( x , & tq_timer )", "1"])


if __name__ == "__main__":
    unittest.main()
