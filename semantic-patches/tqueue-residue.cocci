/// Report what the other tqueue-*.cocci files cannot convert, as
/// `file:line: reason`, so that nothing is skipped silently:
///
///  - queue_task() on tq_timer, tq_disk, on tq_immediate without its
///    mark_bh(IMMEDIATE_BH), or on a private queue; run_task_queue();
///    DECLARE_TASK_QUEUE(); a mark_bh(IMMEDIATE_BH) left alone;
///  - tq_struct initialisers DECLARE_WORK cannot express (positional, or
///    with other fields), and a tq_struct initialised inside another
///    structure's initialiser;
///  - .sync or .list on a work_t (no such members), and a .sync whose type
///    is unknown in a file that uses work;
///  - .func (or a .routine left) or .data set on work that the file never
///    sets up with INIT_WORK or DECLARE_WORK: a zeroed work_t cannot be
///    queued;
///  - any legacy name still in the code (tq_struct in a macro argument,
///    code coccinelle could not parse, ...), found by a token scan.
///
/// Patch mode changes nothing.  Run last, on converted code.
//
// Confidence: High
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: tq_timer, tq_disk, tq_immediate, residue

virtual patch
virtual report
virtual stats
virtual convert

@initialize:python@
@@
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(cocci.cocci_file)))
import tqlib

@script:python@
@@
tqlib.start_file(cocci.files())

@script:python depends on report@
@@
tqlib.set_report_mode()

@script:python depends on stats@
@@
tqlib.set_stats_mode()

// ------------------------------------------------------- other queues

@qt@
expression E, Q;
position p;
@@
 queue_task@p(E, Q)

@script:python@
E << qt.E;
Q << qt.Q;
p << qt.p;
@@
q = tqlib.c(Q)
e = tqlib.c(E)
if q == "&tq_timer":
    why = ("queue_task(%s, &tq_timer): runs in the timer interrupt at the next tick; by hand: "
           "schedule_delayed_work(%s, 1) (process context, one tick later; what "
           "convert --tq-timer=delayed writes), or a timer_list if it must stay in interrupt "
           "context" % (e, e))
elif q == "&tq_disk":
    why = ("queue_task(%s, &tq_disk): the block layer's plug queue, not deferred work: "
           "leave it to the block layer's own conversion (blk_plug_device())" % e)
elif q == "&tq_immediate":
    why = ("queue_task(%s, &tq_immediate) and no mark_bh(IMMEDIATE_BH) in the file: by hand, "
           "schedule_work(%s) if another file's mark_bh ran it" % (e, e))
elif q == "&tq_scheduler":
    why = "queue_task(%s, &tq_scheduler): by hand, schedule_work(%s)" % (e, e)
else:
    why = None
    tqlib.note(p, "kept_private_queue",
               "queue_task(%s, %s): %s is a private task queue, kept, and %s stays a "
               "struct tq_struct; the workqueue equivalent: "
               "queue_work(wq, %s) on a workqueue of its own, flush_workqueue(wq) where "
               "run_task_queue() was" % (e, q, q.lstrip("&"), e.lstrip("&"), e), "kept")
if why:
    tqlib.note(p, "residue_queue_task", why, "residue")

@rq@
expression Q;
position p;
@@
 run_task_queue@p(Q)

@script:python@
Q << rq.Q;
p << rq.p;
@@
q = tqlib.c(Q)
if q == "&tq_disk":
    why = "run_task_queue(&tq_disk): the block layer's unplugging, not deferred work; convert by hand"
elif q in ("&tq_timer", "&tq_immediate"):
    why = "run_task_queue(%s): runs a bottom-half queue; there is no such queue any more, convert by hand" % q
else:
    why = None
    tqlib.note(p, "kept_private_queue",
               "run_task_queue(%s): runs the private task queue %s here, synchronously, in "
               "this caller's context; a workqueue would run its tasks later, in a worker "
               "thread, so the queue is kept (<linux/tqueue.h>); the workqueue equivalent "
               "is queue_work() on a workqueue of its own and flush_workqueue() here"
               % (q, q.lstrip("&")),
               "kept")
if why:
    tqlib.note(p, "residue_run_task_queue", why, "residue")

// a token scan, not `declarer name DECLARE_TASK_QUEUE`: that makes the
// parser take the q of the header's `#define DECLARE_TASK_QUEUE(q)` for a
// type name, and then every `q->...` of the file fails to parse
@script:python@
@@
for f in tqlib._current:
    toks = tqlib.file_tokens(f)
    for i in range(len(toks) - 3):
        if toks[i][1] == "DECLARE_TASK_QUEUE" and toks[i + 1][1] == "(" and \
                toks[i + 3][1] == ")":
            q = toks[i + 2][1]
            tqlib.note_line(f, toks[i][2], "kept_private_queue",
                            "DECLARE_TASK_QUEUE(%s): a private task queue, run synchronously "
                            "where run_task_queue(&%s) is called: kept (a workqueue would run "
                            "it asynchronously)" % (q, q), "kept")

@mb@
symbol IMMEDIATE_BH;
position p;
@@
 mark_bh@p(IMMEDIATE_BH)

@script:python@
p << mb.p;
@@
tqlib.note(p, "residue_mark_bh",
           "mark_bh(IMMEDIATE_BH) without queue_task(..., &tq_immediate) next to it: convert by hand",
           "residue")

// -------------------------------------------------------- initialisers

@ini@
typedef work_t;
type T = {work_t, struct tq_struct, struct work_struct};
identifier x;
initializer list il;
position p;
@@
 T x@p = { il };

@script:python@
x << ini.x;
il << ini.il;
p << ini.p;
@@
fs = tqlib.parse_tq_initializer(il.elements)
els = [" ".join(e.split()) for e in il.elements]
if fs is None and len(els) >= 3 and not tqlib.designated(els[0]):
    tqlib.note(p, "residue_initializer",
               "%s: positional tq_struct initialiser with a list or sync (%s, %s) DECLARE_WORK "
               "cannot express; by hand: DECLARE_WORK(%s, %s, %s) and drop what set them"
               % (x, els[0], els[1], x, els[2], els[3] if len(els) > 3 else "NULL"), "residue")
elif fs is None or "list" in fs:
    tqlib.note(p, "residue_initializer",
               "%s: %s tq_struct initialiser; rewrite as DECLARE_WORK(%s, f, d) by hand"
               % (x, "positional" if fs is None else "a .list in the", x), "residue")

@nested@
type T;
identifier x;
initializer list il;
position p;
@@
 T x@p = { il };

@script:python@
T << nested.T;
x << nested.x;
il << nested.il;
p << nested.p;
@@
import re
if T.strip() not in ("work_t", "struct tq_struct", "struct work_struct"):
    for e in il.elements:
        if re.search(r"\{\s*(\.\s*routine\s*=|routine\s*:)", e):
            tqlib.note(p, "residue_nested_initializer",
                       "%s: a tq_struct initialised inside another initialiser; use INIT_WORK() at run time" % x,
                       "residue")
            break

// ----------------------------------------------------- members that went

@gone@
typedef work_t;
{work_t, struct work_struct} E;
{work_t *, struct work_struct *} P;
identifier fld = {sync, list};
position p;
@@
(
 E@p.fld
|
 P@p->fld
)

@script:python@
fld << gone.fld;
p << gone.p;
@@
tqlib.note(p, "residue_member",
           ".%s on a work_t: there is no such member (%s)" %
           (fld, "use .pending" if fld == "sync" else "the list is private to the workqueue"),
           "residue")

@le@
typedef work_t;
expression E;
identifier member : script:python() { member == "list" };
position p;
@@
(
 list_entry@p(E, work_t, member)
|
 list_entry@p(E, struct work_struct, member)
)

@script:python@
p << le.p;
@@
tqlib.note(p, "residue_member",
           "list_entry(..., work_t, list): a work's list is private to the workqueue",
           "residue")

@uses_work@
@@
#include <linux/workqueue.h>

@known@
type T;
T E;
position p;
@@
(
 E@p.sync
|
 E@p->sync
)

@unknown_sync depends on uses_work@
expression E;
position p != known.p;
@@
(
 E@p.sync
|
 E@p->sync
)

@script:python@
E << unknown_sync.E;
p << unknown_sync.p;
@@
tqlib.note(p, "residue_unknown_sync",
           "%s: .sync on an expression of unknown type; if it is work, use .pending (give convert the header that declares it)" % tqlib.c(E),
           "residue")

// ------------------------------------------------ work never set up
// x.func = f; or x.data = d; left on work the file never sets up with
// INIT_WORK/DECLARE_WORK, where x is work (typed so, or scheduled).

@lone_dot@
expression E, v;
identifier fld = {routine, func, data};
position p;
@@
 E@p.fld = v

@script:python@
E << lone_dot.E;
@@
tqlib.fact("lone", "&" + tqlib.c(E))

@lone_arrow@
expression P, v;
identifier fld = {routine, func, data};
position p;
@@
 P@p->fld = v

@script:python@
P << lone_arrow.P;
@@
tqlib.fact("lone", tqlib.c(P))

@setup@
expression A : script:python() { tqlib.has_fact("lone", tqlib.c(A)) };
expression f, d;
identifier m = {INIT_WORK, INIT_TQUEUE};
@@
 m(A, f, d)

@script:python@
A << setup.A;
@@
tqlib.fact("set_up", tqlib.c(A))

@setup_decl@
expression f, d;
identifier x : script:python() { tqlib.has_fact("lone", "&" + x) };
declarer name DECLARE_WORK;
@@
 DECLARE_WORK(x, f, d);

@script:python@
x << setup_decl.x;
@@
tqlib.fact("set_up", "&" + x)

@used@
typedef work_t;
{work_t, struct work_struct} TE;
{work_t *, struct work_struct *} TP;
expression A : script:python() { tqlib.has_fact("lone", tqlib.c(A)) };
expression Q, t, v;
identifier fld = {routine, func, data};
@@
(
 TE.fld = v
|
 TP->fld = v
|
 schedule_work(A)
|
 schedule_delayed_work(A, t)
|
 queue_work(Q, A)
|
 queue_delayed_work(Q, A, t)
)

@script:python@
TE << used.TE = "";
TP << used.TP = "";
A << used.A = "";
@@
if TE:
    tqlib.fact("work", "&" + tqlib.c(TE))
if TP:
    tqlib.fact("work", tqlib.c(TP))
if A:
    tqlib.fact("work", tqlib.c(A))

@script:python@
E << lone_dot.E;
fld << lone_dot.fld;
p << lone_dot.p;
@@
w = "&" + tqlib.c(E)
if tqlib.has_fact("work", w) and not tqlib.has_fact("set_up", w):
    tqlib.note(p, "residue_not_set_up",
               "%s.%s is set, but %s is never set up with INIT_WORK() or DECLARE_WORK() in this file: a zeroed work_t cannot be queued"
               % (tqlib.c(E), fld, tqlib.c(E)), "residue")

@script:python@
P << lone_arrow.P;
fld << lone_arrow.fld;
p << lone_arrow.p;
@@
w = tqlib.c(P)
if tqlib.has_fact("work", w) and not tqlib.has_fact("set_up", w):
    tqlib.note(p, "residue_not_set_up",
               "%s->%s is set, but *%s is never set up with INIT_WORK() in this file: a zeroed work_t cannot be queued"
               % (w, fld, w), "residue")

// ------------------------------------------------------ the token scan
// (convert does this itself, on every candidate, parsed or not)

@script:python depends on !convert@
@@
for fname in cocci.files():
    try:
        text = open(fname, encoding="latin-1").read()
    except OSError:
        continue
    done = tqlib.reported_lines(fname)
    for line, tok, why in tqlib.legacy_residue(text):
        if line not in done:
            tqlib.note_line(fname, line, "residue_" + tok.replace(".", "_"), why, "residue")
