/// x.sync and p->sync become x.pending and p->pending: the bit that says
/// "queued and not yet started" has a new name (and the same meaning:
/// test_bit(0, &x.pending) works as test_bit(0, &x.sync) did).
///
/// Converted where the type is known to be struct tq_struct (declared in
/// the file, or in a header found with -I), and where the type is unknown
/// but the same expression is used as a task queue in the file (scheduled,
/// initialised, or its .routine/.data touched).  Any other .sync is left
/// alone; tqueue-residue.cocci reports the doubtful ones.
///
/// Run before tqueue-init.cocci: once a declaration is a DECLARE_WORK()
/// macro, coccinelle no longer knows the variable's type.
//
// Confidence: High
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: tq_struct, sync, pending

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

// Known to be a task queue.
@sync_typed@
struct tq_struct E;
struct tq_struct *P;
position p;
@@
(
 E@p.sync
|
 P@p->sync
)

@script:python depends on report || stats@
p << sync_typed.p;
@@
tqlib.note(p, "sync_pending", ".sync -> .pending")

// Known to be something else: left alone.
@other@
type T : script:python() { not tqlib.is_tq_type(T) };
T E;
position p;
@@
(
 E@p.sync
|
 E@p->sync
)

// Unknown: converted if the file uses the same expression as a task queue
// (scheduled, initialised, its .routine or .data touched).
@cand@
expression E;
position p != {other.p, sync_typed.p};
@@
(
 E@p.sync
|
 E@p->sync
)

@script:python@
E << cand.E;
@@
tqlib.fact("sync_cand", tqlib.c(E))
if tqlib.renamed_member(tqlib.c(E)):
    tqlib.fact("sync_used", tqlib.c(E))

@used@
expression E : script:python() { tqlib.has_fact("sync_cand", tqlib.c(E)) };
expression Q;
identifier fn = {schedule_task, schedule_work, queue_task, INIT_TQUEUE,
                 PREPARE_TQUEUE, INIT_WORK, PREPARE_WORK};
@@
(
 fn(&E, ...)
|
 fn(E, ...)
|
 queue_work(Q, &E)
|
 queue_work(Q, E)
|
 E.routine
|
 E.data
|
 E->routine
|
 E->data
)

@script:python@
E << used.E;
@@
tqlib.fact("sync_used", tqlib.c(E))

@script:python depends on report || stats@
E << cand.E;
p << cand.p;
@@
if tqlib.has_fact("sync_used", tqlib.c(E)):
    tqlib.note(p, "sync_pending", ".sync -> .pending (type unknown, used as a task queue)")

// The untyped ones first: their positions are still fresh.
@depends on patch@
expression E : script:python() { tqlib.has_fact("sync_used", tqlib.c(E)) };
position cand.p;
@@
(
 E@p.
- sync
+ pending
|
 E@p->
- sync
+ pending
)

@depends on patch@
struct tq_struct E;
struct tq_struct *P;
@@
(
 E.
- sync
+ pending
|
 P->
- sync
+ pending
)
