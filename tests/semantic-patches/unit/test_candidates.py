"""candidates.words_pattern(): the factored alternation matches the words
given and nothing else, as the plain alternation did."""

import re
import unittest

import _path  # noqa: F401
from tqconvert.candidates import words_pattern


class WordsPattern(unittest.TestCase):
    def check(self, words, others):
        p = re.compile(r"\b(%s)\b" % words_pattern(words))
        for w in words:
            self.assertEqual(p.search("x = %s;" % w).group(1), w)
        for w in others:
            self.assertIsNone(p.search("x = %s;" % w), w)

    def test_prefixes_of_each_other(self):
        self.check(["bh", "bh_1", "bh_pointer", "b"], ["bh_2", "bh_", "bhx", "bh_pointers", "a"])

    def test_one_word_and_none_shared(self):
        self.check(["tq"], ["t", "tqs"])
        self.check(["tq_hangup", "poll_task", "immediate_bh"], ["tq_hang", "poll", "immediate"])

    def test_factored(self):
        self.assertEqual(words_pattern(["bh", "bh_1", "bh_pointer"]), "bh(?:_(?:1|pointer))?")


if __name__ == "__main__":
    unittest.main()
