"""declarations - what a conversion changes on purpose, said beside the change.

A design patch drivers/design/NAME.patch (and a driver of one's own, in its
directory) may come with a NAME.moves file of lines

    routine: from -> to: why
    routine: concurrent with itself: why

"from" and "to" are where the routine runs: a queue (keventd, events, aio,
...) or a bottom half (tq_immediate, tq_timer); "from" may be the legacy
place or where the conversion alone puts it (keventd or events alike).  The demo counts a routine
that runs where the legacy side ran it, modulo keventd becoming events, as
unchanged; any other change of place, and any routine that runs
concurrently with itself after the conversion, is DIFFERENT unless a
declaration says so.  A declared change that did not happen is a warning.
"""
import collections
import glob
import os
import re

Declaration = collections.namedtuple("Declaration", "routine kind frm to why where")

LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*)\s*:\s*(.+?)\s*:\s*(.+?)\s*$")
MOVE = re.compile(r"^([A-Za-z_][A-Za-z_0-9]*)\s*->\s*([A-Za-z_][A-Za-z_0-9]*)$")

# the one change of place that needs no word: the shared queue of each stack
SHARED = {"keventd": "events"}


class DeclarationError(Exception):
    pass


def parse(path):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = LINE.match(line)
            where = "%s:%d" % (path, n)
            if not m:
                raise DeclarationError("%s: expected 'routine: from -> to: why' or "
                                       "'routine: concurrent with itself: why', got %r"
                                       % (where, line.strip()))
            routine, what, why = m.groups()
            if what == "concurrent with itself":
                out.append(Declaration(routine, "self", None, None, why, where))
                continue
            mv = MOVE.match(what)
            if not mv:
                raise DeclarationError("%s: %r is neither 'from -> to' nor 'concurrent "
                                       "with itself'" % (where, what))
            out.append(Declaration(routine, "move", mv.group(1), mv.group(2), why, where))
    return out


def load(paths):
    """Every declaration of the given .moves files and directories."""
    out = []
    for p in paths:
        files = sorted(glob.glob(os.path.join(p, "*.moves"))) if os.path.isdir(p) else [p]
        for f in files:
            out += parse(f)
    return out


def expected_places(legacy_places, routine, decls):
    """Where the converted routine may run, from where the legacy one ran."""
    exp = set()
    for q in legacy_places:
        moved = [d.to for d in decls if d.kind == "move" and d.routine == routine
                 and moves_from(d, q)]
        exp |= set(moved) if moved else {SHARED.get(q, q)}
    return exp


def moves_from(d, legacy_place):
    """A move may name the legacy place (keventd) or where the conversion
    alone would have put it (events)."""
    return d.frm in (legacy_place, SHARED.get(legacy_place))


def self_declared(routine, decls):
    return any(d.kind == "self" and d.routine == routine for d in decls)
