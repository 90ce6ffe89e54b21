"""tqconvert.family: a task whose data one file sets and whose routine
another sets, made one work set up where its data is."""

import unittest

import _path  # noqa: F401
import tqbh
from tqconvert import family

CORE = ("struct card { struct tq_struct tq; };\n"
        "int setup(struct card *c)\n{\n\tc->tq.sync = 0;\n\tc->tq.data = c;\n\treturn 0;\n}\n")
CHIP = "void chip_init(struct card *c)\n{\n\tc->tq.routine = (void *) chip_bh;\n}\n"


def edits(texts):
    out = tqbh.Plan()
    family.plan(texts, out)
    return {k: tqbh.apply(texts[k], e)[0] for k, e in out.edits.items()}


class Family(unittest.TestCase):
    def test_data_in_one_file_routine_in_another(self):
        got = edits({"core.c": CORE, "chip.c": CHIP})
        self.assertIn("\tINIT_TQUEUE(&c->tq, NULL, c);\n\treturn 0;", got["core.c"])
        self.assertNotIn("sync", got["core.c"])
        self.assertIn("PREPARE_TQUEUE(&c->tq, (void *) chip_bh, c);", got["chip.c"])

    def test_a_file_alone_is_left_to_the_rules(self):
        self.assertEqual(edits({"chip.c": CHIP}), {})
        self.assertEqual(edits({"both.c": CORE + CHIP}), {})

    def test_data_other_than_the_structure_is_left(self):
        core = CORE.replace("c->tq.data = c;", "c->tq.data = &other;")
        self.assertEqual(edits({"core.c": core, "chip.c": CHIP}), {})

    def test_another_structure_is_another_task(self):
        chip = CHIP.replace("struct card", "struct other")
        self.assertEqual(edits({"core.c": CORE, "chip.c": chip}), {})

    def test_a_task_set_up_whole_somewhere_is_left(self):
        whole = "void w(struct card *c)\n{\n\tINIT_TQUEUE(&c->tq, f, c);\n}\n"
        self.assertEqual(edits({"core.c": CORE, "chip.c": CHIP, "w.c": whole}), {})


if __name__ == "__main__":
    unittest.main()
