/// The calls that only change name: schedule_task() -> schedule_work()
/// (same return value: 1 if queued, 0 if it was already pending) and
/// flush_scheduled_tasks() -> flush_scheduled_work().  Both now talk to
/// the "events" workqueue instead of keventd.
///
/// Also puts queue_work() calls written in the seed patch's order,
/// queue_work(&work, wq), into the article's order, queue_work(wq, &work):
/// when the first argument is &something and the second is not, or when
/// the types say so.
//
// Confidence: High
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: schedule_task, schedule_work, flush_scheduled_tasks, queue_work

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

@sched depends on report || stats@
expression E;
position p;
@@
 schedule_task@p(E)

@script:python@
p << sched.p;
@@
tqlib.note(p, "schedule_task", "schedule_task() -> schedule_work()")

@depends on patch@
expression E;
@@
- schedule_task(E)
+ schedule_work(E)

@flush depends on report || stats@
position p;
@@
 flush_scheduled_tasks@p()

@script:python@
p << flush.p;
@@
tqlib.note(p, "flush_scheduled_tasks", "flush_scheduled_tasks() -> flush_scheduled_work()")

@depends on patch@
@@
- flush_scheduled_tasks()
+ flush_scheduled_work()

// queue_work(&work, wq), the seed's order: the first argument is &x and
// the second is not, or the types say so.  queue_work(&a, &b) is left.
@qw depends on report || stats@
expression W, Q, Q2;
typedef work_t, workqueue_t;
{work_t *, struct work_struct *} TW;
{workqueue_t *, struct workqueue_struct *} TQ;
position p;
@@
(
 queue_work(&W, &Q2)
|
 queue_work@p(&W, Q)
|
 queue_work@p(TW, TQ)
)

@script:python@
p << qw.p;
@@
tqlib.note(p, "queue_work_order", "queue_work(work, wq) -> queue_work(wq, work)")

@depends on patch@
expression W, Q, Q2;
typedef work_t, workqueue_t;
{work_t *, struct work_struct *} TW;
{workqueue_t *, struct workqueue_struct *} TQ;
@@
(
 queue_work(&W, &Q2)
|
- queue_work(&W, Q)
+ queue_work(Q, &W)
|
- queue_work(TW, TQ)
+ queue_work(TQ, TW)
)
