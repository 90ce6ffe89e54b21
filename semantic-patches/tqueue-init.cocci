/// Initialise work the workqueue way (LWN, 1 Oct 2002):
///
///  - struct tq_struct x = { .routine = f, .data = d };  (or the old GNU
///    form { routine: f, data: d }; any order; without data; with
///    .sync = 0) becomes DECLARE_WORK(x, f, d); static stays static; a
///    missing routine or data becomes NULL (a 0 the author wrote stays);
///  - a bare file-scope struct tq_struct x; becomes DECLARE_WORK(x, NULL,
///    NULL): a zeroed tq_struct was ready to queue, a zeroed work_t is not
///    (its list head must point to itself);
///  - INIT_TQUEUE -> INIT_WORK, PREPARE_TQUEUE -> PREPARE_WORK, the
///    author's arguments as they are (a 0 stays 0: the API changes, not
///    the style of the code around it);
///  - the manual initialisation x.routine = f; x.data = d; (either order,
///    other statements not touching x in between) becomes one
///    INIT_WORK(&x, f, d), absorbing INIT_LIST_HEAD(&x.list) and
///    x.sync = 0 (x.pending = 0 after tqueue-sync.cocci) wherever they
///    stand next to it; p->routine/p->data give INIT_WORK(p, f, d).
///    INIT_WORK is what the seed does for the tty and reiserfs blocks:
///    they set up a fresh, unqueued tq_struct;
///  - a lone x.routine = f; (no data assignment next to it) on a static
///    x whose data is never set in the file becomes PREPARE_WORK(&x, f,
///    NULL), as the seed does for floppy_tq: it re-points work that may be
///    queued, so it must not reinitialise it.  Any other lone .routine or
///    .data assignment is kept (tqueue-types.cocci calls the member func,
///    as 2.5.41 does); tqueue-residue.cocci reports it when x is never
///    set up.
///
/// Initialisers DECLARE_WORK cannot express (positional, .list, other
/// members) are left to tqueue-residue.cocci.  The type itself (struct
/// tq_struct -> work_t) is left to tqueue-types.cocci, which runs after.
//
// Confidence: High
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: tq_struct, DECLARE_WORK, INIT_WORK, PREPARE_WORK

virtual patch
virtual report
virtual stats

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

// Each idiom below is a match rule (for report and stats) followed by a
// patch rule that matches again on its own: a patch rule that inherits
// one environment per match costs matches x functions.

// Static task queues whose data is never set in the file (a lone
// .routine assignment on them is a PREPARE_WORK with NULL data, below).
@st_bare@
identifier x;
position p : script:python(x) { p[0].current_element == x };
@@
 static struct tq_struct x@p;

@script:python@
x << st_bare.x;
@@
tqlib.fact("null_data", x)

@st_init@
identifier x;
initializer list il;
position p : script:python(x) { p[0].current_element == x };
@@
 static struct tq_struct x@p = { il };

@script:python@
x << st_init.x;
il << st_init.il;
@@
fs = tqlib.parse_tq_initializer(il.elements)
if fs is not None and tqlib.null_if_zero(fs.get("data", "NULL")) == "NULL":
    tqlib.fact("null_data", x)

// ----------------------------------------------------------- initialisers

// A const task is a template copied into the one queued (baycom_epp's
// `const struct tq_struct run_bh = {...}; ... bc->run_bh = run_bh;`):
// DECLARE_WORK declares no const, so the const goes.
@depends on patch@
identifier x;
initializer list il;
@@
- const struct tq_struct x = { il };
+ struct tq_struct x = { il };

// Which initialisers DECLARE_WORK can express, by the members they set.
@dinit@
identifier x;
initializer list il;
position p;
@@
 struct tq_struct x@p = { il };

@script:python@
x << dinit.x;
il << dinit.il;
p << dinit.p;
@@
fs = tqlib.parse_tq_initializer(il.elements)
if fs is not None and "positional" in fs:
    # the 2.4 layout: list, sync, routine, data
    tqlib.fact("init_p" + fs["positional"], x)
    tqlib.note(p, "declare_work", "positional struct tq_struct %s initialiser -> DECLARE_WORK()" % x)
elif fs is not None and "list" not in fs:
    tqlib.fact("init_" + "".join(k[0] for k in ("routine", "data", "sync") if k in fs), x)
    tqlib.note(p, "declare_work", "struct tq_struct %s = {...} -> DECLARE_WORK()" % x)

@depends on patch@
identifier r : script:python() { tqlib.has_fact("init_r", r) };
identifier rd : script:python() { tqlib.has_fact("init_rd", rd) };
identifier d : script:python() { tqlib.has_fact("init_d", d) };
identifier rs : script:python() { tqlib.has_fact("init_rs", rs) };
identifier rds : script:python() { tqlib.has_fact("init_rds", rds) };
identifier ds : script:python() { tqlib.has_fact("init_ds", ds) };
identifier none : script:python() { tqlib.has_fact("init_", none) };
identifier pos_one : script:python() { tqlib.has_fact("init_p1", pos_one) };
identifier pos_two : script:python() { tqlib.has_fact("init_p2", pos_two) };
identifier pos_three : script:python() { tqlib.has_fact("init_p3", pos_three) };
identifier pos_four : script:python() { tqlib.has_fact("init_p4", pos_four) };
initializer l;
expression f, e, z;
declarer name DECLARE_WORK;
@@
(
- struct tq_struct pos_four = { l, z, f, e };
+ DECLARE_WORK(pos_four, f, e);
|
- struct tq_struct pos_three = { l, z, f };
+ DECLARE_WORK(pos_three, f, NULL);
|
- struct tq_struct pos_two = { l, z };
+ DECLARE_WORK(pos_two, NULL, NULL);
|
- struct tq_struct pos_one = { z };
+ DECLARE_WORK(pos_one, NULL, NULL);
|
- struct tq_struct r = { .routine = f };
+ DECLARE_WORK(r, f, NULL);
|
- struct tq_struct r = { routine: f };
+ DECLARE_WORK(r, f, NULL);
|
- struct tq_struct rd = { .routine = f, .data = e };
+ DECLARE_WORK(rd, f, e);
|
- struct tq_struct rd = { routine: f, data: e };
+ DECLARE_WORK(rd, f, e);
|
- struct tq_struct d = { .data = e };
+ DECLARE_WORK(d, NULL, e);
|
- struct tq_struct d = { data: e };
+ DECLARE_WORK(d, NULL, e);
|
- struct tq_struct rs = { .routine = f, .sync = z };
+ DECLARE_WORK(rs, f, NULL);
|
- struct tq_struct rs = { routine: f, sync: z };
+ DECLARE_WORK(rs, f, NULL);
|
- struct tq_struct rds = { .routine = f, .data = e, .sync = z };
+ DECLARE_WORK(rds, f, e);
|
- struct tq_struct rds = { routine: f, data: e, sync: z };
+ DECLARE_WORK(rds, f, e);
|
- struct tq_struct ds = { .data = e, .sync = z };
+ DECLARE_WORK(ds, NULL, e);
|
- struct tq_struct ds = { data: e, sync: z };
+ DECLARE_WORK(ds, NULL, e);
|
- struct tq_struct none = { };
+ DECLARE_WORK(none, NULL, NULL);
)

// A bare file-scope declaration (not extern, not in a function).
@ext@
identifier x;
@@
 extern struct tq_struct x;

@script:python@
x << ext.x;
@@
tqlib.fact("extern", x)

@bare depends on report || stats@
identifier x;
position p : script:python(x) { p[0].current_element == x and not tqlib.has_fact("extern", x) };
@@
 struct tq_struct x@p;

@script:python@
x << bare.x;
p << bare.p;
@@
tqlib.note(p, "declare_work", "struct tq_struct %s; -> DECLARE_WORK(%s, NULL, NULL)" % (x, x))

@depends on patch@
identifier x;
position p : script:python(x) { p[0].current_element == x and not tqlib.has_fact("extern", x) };
declarer name DECLARE_WORK;
@@
- struct tq_struct x@p;
+ DECLARE_WORK(x, NULL, NULL);

// ------------------------------------------------ INIT_TQUEUE, PREPARE_TQUEUE

@it depends on report || stats@
expression E, f, d;
identifier m = {INIT_TQUEUE, PREPARE_TQUEUE};
position p;
@@
 m@p(E, f, d)

@script:python@
m << it.m;
p << it.p;
@@
tqlib.note(p, m.lower(), "%s() -> %s()" % (m, m.replace("TQUEUE", "WORK")))

@depends on patch@
expression E, f, d;
@@
(
- INIT_TQUEUE(E, f, d)
+ INIT_WORK(E, f, d)
|
- PREPARE_TQUEUE(E, f, d)
+ PREPARE_WORK(E, f, d)
)

// -------------------------------------------------- manual initialisation
// One rule per (routine first | data first) x (x. | p->); INIT_LIST_HEAD
// and .sync = 0 statements in between are absorbed.  An expression whose
// type is known to be something other than a tq_struct (a work_t, another
// structure with .routine and .data) is left alone; one of unknown type
// (its header was not found) is converted on the strength of the idiom.
// The positions of the "other" expressions are taken again before each
// rule that edits code: a position goes stale once its function changes.

@other1@
type T : script:python() { not tqlib.is_tq_type(T) };
T E;
position p;
@@
(
 E@p.routine
|
 E@p.data
|
 E@p->routine
|
 E@p->data
)

@m1 depends on report || stats@
expression E, f, d;
position p1 != other1.p, p2 != other1.p;
@@
(
 E@p1.routine = f;
 <... when != E
(
 INIT_LIST_HEAD(&E.list);
|
 E.sync = 0;
|
 E.pending = 0;
)
 ...>
 E@p2.data = d;
|
 E@p2.data = d;
 ... when != E
 E@p1.routine = f;
)

@script:python@
E << m1.E;
p << m1.p1;
@@
tqlib.note(p, "manual_init", "%s.routine/.data assignments -> INIT_WORK()" % tqlib.c(E))

@depends on patch@
expression E, f, d;
position p1 != other1.p, p2 != other1.p;
@@
- E@p1.routine = f;
+ INIT_WORK(&E, f, d);
 <... when != E
(
- INIT_LIST_HEAD(&E.list);
|
- E.sync = 0;
|
- E.pending = 0;
)
 ...>
- E@p2.data = d;

@other2@
type T : script:python() { not tqlib.is_tq_type(T) };
T E;
position p;
@@
(
 E@p.routine
|
 E@p.data
|
 E@p->routine
|
 E@p->data
)

@depends on patch@
expression E, f, d;
position p1 != other2.p, p2 != other2.p;
@@
- E@p2.data = d;
+ INIT_WORK(&E, f, d);
 <... when != E
(
- INIT_LIST_HEAD(&E.list);
|
- E.sync = 0;
|
- E.pending = 0;
)
 ...>
- E@p1.routine = f;

@other3@
type T : script:python() { not tqlib.is_tq_type(T) };
T E;
position p;
@@
(
 E@p.routine
|
 E@p.data
|
 E@p->routine
|
 E@p->data
)

@m3 depends on report || stats@
expression P, f, d;
position p1 != other3.p, p2 != other3.p;
@@
(
 P@p1->routine = f;
 <... when != P
(
 INIT_LIST_HEAD(&P->list);
|
 P->sync = 0;
|
 P->pending = 0;
)
 ...>
 P@p2->data = d;
|
 P@p2->data = d;
 ... when != P
 P@p1->routine = f;
)

@script:python@
P << m3.P;
p << m3.p1;
@@
tqlib.note(p, "manual_init", "%s->routine/->data assignments -> INIT_WORK()" % tqlib.c(P))

@depends on patch@
expression P, f, d;
position p1 != other3.p, p2 != other3.p;
@@
- P@p1->routine = f;
+ INIT_WORK(P, f, d);
 <... when != P
(
- INIT_LIST_HEAD(&P->list);
|
- P->sync = 0;
|
- P->pending = 0;
)
 ...>
- P@p2->data = d;

@other4@
type T : script:python() { not tqlib.is_tq_type(T) };
T E;
position p;
@@
(
 E@p.routine
|
 E@p.data
|
 E@p->routine
|
 E@p->data
)

@depends on patch@
expression P, f, d;
position p1 != other4.p, p2 != other4.p;
@@
- P@p2->data = d;
+ INIT_WORK(P, f, d);
 <... when != P
(
- INIT_LIST_HEAD(&P->list);
|
- P->sync = 0;
|
- P->pending = 0;
)
 ...>
- P@p1->routine = f;

// INIT_LIST_HEAD(&x.list) and x.sync = 0 just before or after an
// INIT_WORK of the same x (from the rules above, or from INIT_TQUEUE) are
// part of it.  Twice each way: there can be two of them.

@depends on patch@
expression E, f, d;
@@
(
- INIT_LIST_HEAD(&E.list);
|
- E.sync = 0;
|
- E.pending = 0;
)
 ... when != E
 INIT_WORK(&E, f, d);

@depends on patch@
expression E, f, d;
@@
(
- INIT_LIST_HEAD(&E.list);
|
- E.sync = 0;
|
- E.pending = 0;
)
 ... when != E
 INIT_WORK(&E, f, d);

@depends on patch@
expression E, f, d;
@@
 INIT_WORK(&E, f, d);
 ... when != E
(
- INIT_LIST_HEAD(&E.list);
|
- E.sync = 0;
|
- E.pending = 0;
)

@depends on patch@
expression E, f, d;
@@
 INIT_WORK(&E, f, d);
 ... when != E
(
- INIT_LIST_HEAD(&E.list);
|
- E.sync = 0;
|
- E.pending = 0;
)

@depends on patch@
expression P, f, d;
@@
(
- INIT_LIST_HEAD(&P->list);
|
- P->sync = 0;
|
- P->pending = 0;
)
 ... when != P
 INIT_WORK(P, f, d);

@depends on patch@
expression P, f, d;
@@
(
- INIT_LIST_HEAD(&P->list);
|
- P->sync = 0;
|
- P->pending = 0;
)
 ... when != P
 INIT_WORK(P, f, d);

@depends on patch@
expression P, f, d;
@@
 INIT_WORK(P, f, d);
 ... when != P
(
- INIT_LIST_HEAD(&P->list);
|
- P->sync = 0;
|
- P->pending = 0;
)

@depends on patch@
expression P, f, d;
@@
 INIT_WORK(P, f, d);
 ... when != P
(
- INIT_LIST_HEAD(&P->list);
|
- P->sync = 0;
|
- P->pending = 0;
)

// ------------------------------------------------ lone routine assignment

@data_set@
identifier x : script:python() { tqlib.has_fact("null_data", x) };
expression e, f;
@@
(
 x.data = e
|
 INIT_WORK(&x, f, e)
|
 PREPARE_WORK(&x, f, e)
)

@script:python@
x << data_set.x;
e << data_set.e;
@@
if tqlib.null_if_zero(tqlib.c(e)) != "NULL":
    tqlib.fact("data_set", x)

@lone depends on report || stats@
identifier x : script:python() { tqlib.has_fact("null_data", x) and not tqlib.has_fact("data_set", x) };
expression f;
position p;
@@
 x@p.routine = f;

@script:python@
x << lone.x;
p << lone.p;
@@
tqlib.note(p, "prepare_routine", "%s.routine = ... -> PREPARE_WORK(&%s, ..., NULL)" % (x, x))

@depends on patch@
identifier x : script:python() { tqlib.has_fact("null_data", x) and not tqlib.has_fact("data_set", x) };
expression f;
@@
- x.routine = f;
+ PREPARE_WORK(&x, f, NULL);

