/// The structure itself: #include <linux/tqueue.h> becomes
/// <linux/workqueue.h> (or goes, when workqueue.h is already included),
/// and struct tq_struct becomes struct work_struct wherever a type is
/// written (2.5.41's spelling: Linus took the seed's typedefs out before
/// he merged it, so no maintainer's conversion says work_t):
/// declarations, struct members, parameters, return types, casts, sizeof,
/// typedefs, macro arguments.  x.routine and p->routine become x.func
/// and p->func, the name 2.5.41 gives the member (2.5.39-D6's work_struct
/// called it routine): where the type is a task or work, and where it is
/// unknown but the same expression is used as one in the file; x.data
/// stays.  What tqueue-init.cocci made INIT_WORK or PREPARE_WORK is gone
/// by then: this is what is left (a routine called directly, printed,
/// or set alone).
///
/// Run last: tqueue-sync.cocci and tqueue-init.cocci need to see
/// struct tq_struct.
//
// Confidence: High
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: tq_struct, work_struct, tqueue.h, workqueue.h

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

// ------------------------------------------------- .routine -> .func
// Before the types change: the typed rules need struct tq_struct.

@fn_typed@
typedef work_t;
{struct tq_struct, work_t, struct work_struct} E;
{struct tq_struct *, work_t *, struct work_struct *} P;
position p;
@@
(
 E@p.routine
|
 P@p->routine
)

@script:python@
p << fn_typed.p;
@@
tqlib.note(p, "routine_func", ".routine -> .func")

// known to be something else (another structure with a routine): left
@fn_other@
type T : script:python() { not tqlib.is_tq_type(T) and not tqlib.is_work_type(T) };
T E;
position p;
@@
(
 E@p.routine
|
 E@p->routine
)

@fn_cand@
expression E;
position p != {fn_other.p, fn_typed.p};
@@
(
 E@p.routine
|
 E@p->routine
)

@script:python@
E << fn_cand.E;
@@
tqlib.fact("fn_cand", tqlib.c(E))
if tqlib.renamed_member(tqlib.c(E)):
    tqlib.fact("fn_used", tqlib.c(E))

// unknown: converted if the file uses the same expression as a task or
// work (scheduled, queued, initialised, its .data or .pending touched)
@fn_used@
expression E : script:python() { tqlib.has_fact("fn_cand", tqlib.c(E)) };
expression Q, t;
identifier fn = {schedule_task, schedule_work, INIT_TQUEUE, PREPARE_TQUEUE, INIT_WORK,
                 PREPARE_WORK, queue_task};
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
 schedule_delayed_work(&E, t)
|
 schedule_delayed_work(E, t)
|
 E.data
|
 E->data
|
 E.pending
|
 E->pending
)

@script:python@
E << fn_used.E;
@@
tqlib.fact("fn_used", tqlib.c(E))

@script:python depends on report || stats@
E << fn_cand.E;
p << fn_cand.p;
@@
if tqlib.has_fact("fn_used", tqlib.c(E)):
    tqlib.note(p, "routine_func", ".routine -> .func (type unknown, used as work)")

// the untyped ones first: their positions are still fresh
@depends on patch@
expression E : script:python() { tqlib.has_fact("fn_used", tqlib.c(E)) };
position fn_cand.p;
@@
(
 E@p.
- routine
+ func
|
 E@p->
- routine
+ func
)

@depends on patch@
typedef work_t;
{struct tq_struct, work_t, struct work_struct} E;
{struct tq_struct *, work_t *, struct work_struct *} P;
@@
(
 E.
- routine
+ func
|
 P->
- routine
+ func
)

// ------------------------------------------------------------- types

@ty@
position p;
@@
 struct tq_struct@p

@script:python@
p << ty.p;
@@
tqlib.note(p, "work_t", "struct tq_struct -> struct work_struct")

@depends on patch@
@@
- struct tq_struct
+ struct work_struct

// ------------------------------------------------------------ include

@has_wq@
@@
#include <linux/workqueue.h>

@inc@
position p;
@@
#include <linux/tqueue.h>@p

@script:python@
p << inc.p;
@@
tqlib.note(p, "include", "#include <linux/tqueue.h> -> <linux/workqueue.h>")

// a task queue kept (private, tq_timer, tq_disk, tq_immediate without
// mark_bh): the file still needs <linux/tqueue.h>, and the workqueue
// header beside it.  (Not DECLARE_TASK_QUEUE: `declarer name` for it in a
// rule makes the parser take the q of the header's own #define for a type
// name, and then every `q->...` of the file fails to parse.)
@tq_left_call@
@@
(
 queue_task(...)
|
 run_task_queue(...)
)

// a task convert keeps because a private queue runs it: convert hid its
// type and set-up from these rules under the names below (tqprep.py,
// _KEEP_NAMES), and INIT_TQUEUE() and struct tq_struct need the header
@tq_kept_use@
@@
(
 INIT_TQKEPT(...)
|
 PREPARE_TQKEPT(...)
|
 schedule_kept(...)
)

@tq_kept_type@
@@
 struct tq_kept__

// a private queue declared and not (yet) used: DECLARE_TASK_QUEUE still
// needs the header.  A token scan of the file, for the reason above.
@tq_declared@
position p : script:python() { tqlib.declares_task_queue(p[0].file) };
@@
#include <linux/tqueue.h>@p

@depends on patch && has_wq && !tq_left_call && !tq_declared && !tq_kept_use && !tq_kept_type@
@@
- #include <linux/tqueue.h>

@depends on patch && !has_wq && !tq_left_call && !tq_declared && !tq_kept_use && !tq_kept_type@
@@
- #include <linux/tqueue.h>
+ #include <linux/workqueue.h>

@depends on patch && !has_wq && (tq_left_call || tq_declared || tq_kept_use || tq_kept_type)@
@@
  #include <linux/tqueue.h>
+ #include <linux/workqueue.h>
