"""tqconvert.scope: what a name is where a statement stands."""

import unittest

import _path  # noqa: F401
import tqprep
from tqconvert import scope

SRC = """#include <linux/tty.h>
static struct tty_struct *console_tty;
static int ports, *counts;

static void release(struct file *filp, struct tty_struct *peer)
{
\tstruct tty_struct *tty, *o_tty;
\tint pty_master, closing;

\ttty = filp->private_data;
\to_tty = tty->link;
\tif (o_tty && o_tty->count)
\t\tclosing = 0;
\t{
\t\tstruct tty_struct *inner;

\t\tinner = tty;
\t}
\tHERE();
\t{
\t\tstruct tty_struct *later;
\t}
}
"""


class Scope(unittest.TestCase):
    def setUp(self):
        self.toks = tqprep.scan(SRC)
        self.funcs = scope._functions(self.toks)
        self.here = next(i for i, t in enumerate(self.toks) if t.val == "HERE")

    def test_params_locals_and_globals_in_scope_with_their_types(self):
        got = {v.name: (v.type, v.stars, v.kind)
               for v in scope.in_scope(self.toks, self.funcs, self.here)}
        self.assertEqual(got["tty"], ("struct tty_struct", 1, "local"))
        self.assertEqual(got["o_tty"], ("struct tty_struct", 1, "local"))
        self.assertEqual(got["closing"], ("int", 0, "local"))
        self.assertEqual(got["pty_master"], ("int", 0, "local"))
        self.assertEqual(got["filp"], ("struct file", 1, "param"))
        self.assertEqual(got["peer"], ("struct tty_struct", 1, "param"))
        self.assertEqual(got["console_tty"], ("struct tty_struct", 1, "global"))
        self.assertEqual(got["counts"], ("int", 1, "global"))

    def test_a_block_that_closed_or_opens_later_is_out_of_scope(self):
        names = {v.name for v in scope.in_scope(self.toks, self.funcs, self.here)}
        self.assertNotIn("inner", names)
        self.assertNotIn("later", names)
        self.assertNotIn("HERE", names)

    def test_null_tests(self):
        f = scope.function_at(self.funcs, self.here)
        self.assertTrue(scope.tested_for_null(self.toks, f[2], f[3], "o_tty"))
        # tty is used, compared, dereferenced: never tested itself
        self.assertFalse(scope.tested_for_null(self.toks, f[2], f[3], "tty"))
        for code in ("if (!p) return;", "x = p ? 1 : 0;", "if (p != NULL) f();",
                     "while (p) p = q;", "if (a && p) f();", "if (NULL == p) f();"):
            t = tqprep.scan(code)
            self.assertTrue(scope.tested_for_null(t, 0, len(t), "p"), code)
        for code in ("if (p->count) f();", "if (x == p) f();", "f(p);", "if (!p->x) g();",
                     "if (a == p || b) f();"):
            t = tqprep.scan(code)
            self.assertFalse(scope.tested_for_null(t, 0, len(t), "p"), code)


if __name__ == "__main__":
    unittest.main()
