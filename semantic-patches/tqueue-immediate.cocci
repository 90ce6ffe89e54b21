/// queue_task(&x, &tq_immediate) with mark_bh(IMMEDIATE_BH) next to it
/// (either order, or as `if (queue_task(...)) mark_bh(...);`) becomes
/// schedule_work(&x), with a comment saying what changed: the work now
/// runs in process context, on the events workqueue, some time after the
/// interrupt rather than at the end of it.  The routine may now sleep; code
/// that relied on running before the next interrupt needs a second look.
///
/// When the queue_task and the mark_bh are in different functions of the
/// file (an interrupt handler queues, a helper marks), every statement
/// queue_task(&x, &tq_immediate); becomes schedule_work(&x); and, once no
/// queue_task on tq_immediate is left in the file, each
/// mark_bh(IMMEDIATE_BH); is dropped: it only ran what was queued there.
/// Each dropped mark_bh is reported as a note.
///
/// With -D tq_timer_delayed (convert --tq-timer=delayed),
/// queue_task(&x, &tq_timer) becomes schedule_delayed_work(&x, 1), the
/// hand conversion of later 2.5 kernels: one tick later, but in process
/// context instead of the timer interrupt; each is reported as a note.
///
/// queue_task(&x, &tq_scheduler), 2.2's queue that schedule() ran in
/// process context (2.5.40 drivers still name it under a test for older
/// kernels), becomes schedule_work(&x), as the maintainers wrote it.
///
/// A queue_task on tq_immediate without any mark_bh(IMMEDIATE_BH) in the
/// file, and every other queue (tq_timer by default, tq_disk, private
/// DECLARE_TASK_QUEUE lists), is left alone and reported by
/// tqueue-residue.cocci.
//
// Confidence: High
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: tq_immediate, IMMEDIATE_BH, mark_bh, schedule_work

virtual patch
virtual report
virtual stats
virtual tq_timer_delayed

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

// any mark_bh(IMMEDIATE_BH) in the file, before the pairs below take
// theirs away: a queue_task() with its mark_bh elsewhere in the file
// converts too (amd7930.c marks after one branch's queue_task only)
@mark_any@
symbol IMMEDIATE_BH;
position q;
@@
 mark_bh@q(IMMEDIATE_BH)

@imm depends on report || stats@
expression E;
symbol tq_immediate, IMMEDIATE_BH;
position p;
@@
(
 queue_task@p(E, &tq_immediate);
 mark_bh(IMMEDIATE_BH);
|
 mark_bh(IMMEDIATE_BH);
 queue_task@p(E, &tq_immediate);
|
 if (queue_task@p(E, &tq_immediate))
   mark_bh(IMMEDIATE_BH);
)

@script:python@
E << imm.E;
p << imm.p;
@@
tqlib.note(p, "tq_immediate",
           "queue_task(%s, &tq_immediate) + mark_bh(IMMEDIATE_BH) -> schedule_work(%s)"
           % (tqlib.c(E), tqlib.c(E)))

@depends on patch@
expression E;
symbol tq_immediate, IMMEDIATE_BH;
@@
(
- queue_task(E, &tq_immediate);
- mark_bh(IMMEDIATE_BH);
+ /* was an immediate bottom half: this work now runs in process context */
+ schedule_work(E);
|
- mark_bh(IMMEDIATE_BH);
- queue_task(E, &tq_immediate);
+ /* was an immediate bottom half: this work now runs in process context */
+ schedule_work(E);
|
- if (queue_task(E, &tq_immediate))
-   mark_bh(IMMEDIATE_BH);
+ /* was an immediate bottom half: this work now runs in process context */
+ schedule_work(E);
)

// ----------------------------------------- queue and mark_bh apart

@imm_apart depends on mark_any && (report || stats)@
expression E;
symbol tq_immediate;
position p;
@@
 queue_task@p(E, &tq_immediate);

@script:python@
E << imm_apart.E;
p << imm_apart.p;
@@
tqlib.note(p, "tq_immediate_apart",
           "queue_task(%s, &tq_immediate) -> schedule_work(%s): its mark_bh(IMMEDIATE_BH) "
           "is in another function" % (tqlib.c(E), tqlib.c(E)))

@depends on patch && mark_any@
expression E;
symbol tq_immediate;
@@
- queue_task(E, &tq_immediate);
+ /* was an immediate bottom half: this work now runs in process context */
+ schedule_work(E);

// any queue_task on tq_immediate left (in an expression): mark_bh stays
@imm_left@
expression E;
symbol tq_immediate;
@@
 queue_task(E, &tq_immediate)

@mark_drop depends on mark_any && !imm_left@
symbol IMMEDIATE_BH;
position q;
@@
 mark_bh@q(IMMEDIATE_BH);

@script:python depends on patch@
q << mark_drop.q;
@@
tqlib.note(q, "tq_immediate_apart",
           "mark_bh(IMMEDIATE_BH) dropped: the work it ran on tq_immediate is now "
           "schedule_work(), in process context", "note")

@depends on patch && mark_any && !imm_left@
symbol IMMEDIATE_BH;
@@
- mark_bh(IMMEDIATE_BH);

// ------------------------------------------------------------ tq_timer

@timer depends on tq_timer_delayed@
expression E;
symbol tq_timer;
position p;
@@
 queue_task@p(E, &tq_timer)

@script:python@
E << timer.E;
p << timer.p;
@@
tqlib.note(p, "tq_timer",
           "queue_task(%s, &tq_timer) -> schedule_delayed_work(%s, 1): the routine ran in "
           "the timer interrupt at the next tick; it now runs in process context a tick "
           "later (it may sleep; it no longer excludes process context by running in "
           "interrupt)" % (tqlib.c(E), tqlib.c(E)), "note")

@depends on patch && tq_timer_delayed@
expression E;
symbol tq_timer;
@@
- queue_task(E, &tq_timer)
+ schedule_delayed_work(E, 1)

// ---------------------------------------------------------- tq_scheduler

@tqsched depends on report || stats@
expression E;
symbol tq_scheduler;
position p;
@@
 queue_task@p(E, &tq_scheduler)

@script:python@
E << tqsched.E;
p << tqsched.p;
@@
tqlib.note(p, "tq_scheduler",
           "queue_task(%s, &tq_scheduler) -> schedule_work(%s)" % (tqlib.c(E), tqlib.c(E)))

@depends on patch@
expression E;
symbol tq_scheduler;
@@
- queue_task(E, &tq_scheduler)
+ schedule_work(E)
