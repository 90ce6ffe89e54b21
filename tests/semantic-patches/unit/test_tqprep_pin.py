"""tqprep.scan(): a file's text pinned by old_tokens() is scanned once
however many other texts are scanned meanwhile, and let go when the file
gets a new text."""

import unittest
from unittest import mock

import _path  # noqa: F401
import tqprep
from tqconvert.prepare import old_tokens


class Entry:
    def __init__(self, text):
        self.old = text


class Pin(unittest.TestCase):
    def tearDown(self):
        tqprep._pinned.clear()

    def test_pinned_text_not_scanned_again(self):
        e = Entry("void f(void) { queue_task(&t, &tq_immediate); }\n")
        toks = old_tokens(e)
        with mock.patch.object(tqprep, "_scan", wraps=tqprep._scan) as scanned:
            for i in range(3 * tqprep._SCANS_KEPT):
                tqprep.scan("int v%d;\n" % i)
            self.assertEqual(scanned.call_count, 3 * tqprep._SCANS_KEPT)
            # an analysis over the whole tree asks again, by text
            self.assertIs(tqprep.scan(e.old), toks)
            self.assertEqual(scanned.call_count, 3 * tqprep._SCANS_KEPT)

    def test_new_text_lets_the_old_one_go(self):
        e = Entry("struct tq_struct t;\n")
        first = e.old
        old_tokens(e)
        e.old = "struct work_struct t;\n"
        self.assertEqual([t.val for t in old_tokens(e)][:2], ["struct", "work_struct"])
        self.assertNotIn(first, tqprep._pinned)
        self.assertIn(e.old, tqprep._pinned)


if __name__ == "__main__":
    unittest.main()
