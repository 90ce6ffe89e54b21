/// queue_task(&x, &tq_immediate) with mark_bh(IMMEDIATE_BH) next to it
/// (either order, or as `if (queue_task(...)) mark_bh(...);`) becomes
/// schedule_work(&x), with a comment saying what changed: the work now
/// runs in process context, on the events workqueue, some time after the
/// interrupt rather than at the end of it.  The routine may now sleep; code
/// that relied on running before the next interrupt needs a second look.
///
/// A queue_task on tq_immediate without its mark_bh, and every other
/// queue (tq_timer, tq_disk, private DECLARE_TASK_QUEUE lists), is left
/// alone and reported by tqueue-residue.cocci.
//
// Confidence: High
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: tq_immediate, IMMEDIATE_BH, mark_bh, schedule_work

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
