"""tqlib.facts(): one computation per text while it is recent, the cache
bounded by bytes of code, and not the rules' per-file facts."""

import unittest

import _path  # noqa: F401
import tqlib


class Facts(unittest.TestCase):
    def setUp(self):
        self.saved = tqlib._FACTS_MAX

    def tearDown(self):
        tqlib._FACTS_MAX = self.saved

    def test_cached_across_start_file(self):
        text = "void f(void) { schedule_task(&t); }\n"
        f = tqlib.facts(text)
        tqlib.fact("data_set", "x")
        tqlib.start_file(["/nonexistent.c"])
        self.assertIs(tqlib.facts(text), f)
        self.assertFalse(tqlib.has_fact("data_set", "x"))

    def test_bounded_by_bytes_of_code(self):
        tqlib._FACTS_MAX = 2000
        texts = ["int v%d = %d;\n" % (i, i) for i in range(500)]
        for t in texts:
            tqlib.facts(t)
        self.assertLessEqual(tqlib._facts_size[0], 2000)
        self.assertEqual(tqlib._facts_size[0], sum(len(f.code) for f in tqlib._facts.values()))
        self.assertIn(texts[-1], tqlib._facts)
        self.assertNotIn(texts[0], tqlib._facts)


if __name__ == "__main__":
    unittest.main()
