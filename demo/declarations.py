"""declarations - what a conversion changes on purpose, said beside the change.

A .moves file holds lines

    routine: from -> to: why
    routine: concurrent with itself: why

"from" and "to" are where the routine runs, in the words the monitor
reports and convert prints: a queue (keventd, events, aio, ...), a bottom
half's task queue (tq_immediate, tq_timer) or a driver's own task queue
(tq_riscom); "from" may be the legacy place or where the conversion alone
puts it (keventd or events alike).  A line convert printed,

    drivers/char/riscom8.c:340: context: rc_softint: tq_riscom -> events: why

is a declaration as it is: the "FILE:LINE: context: " before it is read
over.  The demo counts a routine that runs where the legacy side ran it,
modulo keventd becoming events, as unchanged; any other change of place,
and any routine that runs concurrently with itself after the conversion,
is DIFFERENT unless a declaration says so.

A declaration belongs to the driver it sits beside, and to no other:
  - drivers/design/DRIVER.moves, named after a driver of the manifest;
  - NAME.moves beside a design patch NAME.patch (drivers/design/, or a
    --patch): the drivers whose files the patch changes;
  - DIR/moves of a driver of one's own (--extra DIR): that driver;
  - NAME.moves beside a source file (--src DIR/NAME.c): that driver; and
    the context lines convert printed converting it (the conversion's own
    word for what it changes on purpose), and the tty core's
    (drivers/tty-core/converted/conversion.moves), for it too.
It is matched by the routine's exact name, in that driver's scenarios
only (the cross-driver scenarios are every driver of the manifest's).
A declaration no run exercised vouches for nothing: the demo counts it
as not checked.
"""
import collections
import glob
import os
import re

Declaration = collections.namedtuple("Declaration", "routine kind frm to why where scope")

CONTEXT = re.compile(r"^\s*(\S+:\d+):\s*context:\s*")
LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*)\s*:\s*(.+?)\s*:\s*(.+?)\s*$")
MOVE = re.compile(r"^([A-Za-z_][A-Za-z_0-9]*)\s*->\s*([A-Za-z_][A-Za-z_0-9]*)$")

# the one change of place that needs no word: the shared queue of each stack
SHARED = {"keventd": "events"}

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class DeclarationError(Exception):
    pass


def shown(path):
    """A path as the demo prints it: relative to the checkout when in it,
    else to the kernel tree it lies in (drivers/char/x.c, as a kernel
    developer names it), else as given."""
    p = os.path.abspath(path)
    if p.startswith(TOP + os.sep):
        return os.path.relpath(p, TOP)
    d = os.path.dirname(p)
    while d != os.path.dirname(d):
        if os.path.isfile(os.path.join(d, "Makefile")) and \
                os.path.isdir(os.path.join(d, "include", "linux")):
            return os.path.relpath(p, d)
        d = os.path.dirname(d)
    return path


def parse(path, scope=frozenset()):
    """The declarations of one .moves file, each for the drivers of @scope."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            where = "%s:%d" % (shown(path), n)
            said = CONTEXT.match(line)
            if said:
                # convert's own word, at the line it converted
                where = "convert, %s" % shown(said.group(1))
            m = LINE.match(CONTEXT.sub("", line, count=1))
            if not m:
                raise DeclarationError("%s: expected 'routine: from -> to: why' or "
                                       "'routine: concurrent with itself: why', got %r"
                                       % (where, line.strip()))
            routine, what, why = m.groups()
            if what == "concurrent with itself":
                out.append(Declaration(routine, "self", None, None, why, where,
                                       frozenset(scope)))
                continue
            mv = MOVE.match(what)
            if not mv:
                raise DeclarationError("%s: %r is neither 'from -> to' nor 'concurrent "
                                       "with itself'" % (where, what))
            out.append(Declaration(routine, "move", mv.group(1), mv.group(2), why, where,
                                   frozenset(scope)))
    return out


def patched_files(patch):
    """The files a unified diff changes, by their base names."""
    out = set()
    with open(patch, errors="replace") as f:
        for line in f:
            if line.startswith("+++ "):
                name = line[4:].split("\t")[0].strip()
                if name != "/dev/null":
                    out.add(os.path.basename(name))
    return out


def design_scope(moves, drivers):
    """The drivers a .moves file in a directory of design patches speaks
    for: the driver it is named after, or those its patch changes.
    @drivers: {name: [source and header base names]}."""
    name = os.path.splitext(os.path.basename(moves))[0]
    if name in drivers:
        return {name}
    patch = os.path.splitext(moves)[0] + ".patch"
    if os.path.exists(patch):
        files = patched_files(patch)
        scope = {d for d, srcs in drivers.items() if files & set(srcs)}
        if scope:
            return scope
        raise DeclarationError("%s: its patch %s changes no file of a driver (%s)" % (
            shown(moves), shown(patch), " ".join(sorted(files)) or "nothing"))
    raise DeclarationError("%s: a .moves file speaks for the driver it is named after "
                           "(%s) or sits beside the patch it declares for (%s.patch); "
                           "this one does neither" % (shown(moves), ", ".join(sorted(drivers)),
                                                      name))


def load(entries):
    """Every declaration of @entries, [(path, scope)]: a .moves file and
    the drivers it speaks for."""
    out, seen = [], set()
    for path, scope in entries:
        for d in parse(path, scope):
            # convert says a move once per call site: one declaration
            key = (d.routine, d.kind, d.frm, d.to, d.scope)
            if key not in seen:
                seen.add(key)
                out.append(d)
    return out


def design_entries(directory, drivers):
    """[(path, scope)] of the .moves files of a directory of design patches."""
    return [(f, design_scope(f, drivers))
            for f in sorted(glob.glob(os.path.join(directory, "*.moves")))]


def for_drivers(decls, names):
    """The declarations that speak for any of the drivers @names."""
    names = set(names)
    return [d for d in decls if d.scope & names]


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


def self_declaration(routine, decls):
    """The declaration that lets @routine run concurrently with itself, or None."""
    return next((d for d in decls if d.kind == "self" and d.routine == routine), None)


def self_declared(routine, decls):
    return self_declaration(routine, decls) is not None
