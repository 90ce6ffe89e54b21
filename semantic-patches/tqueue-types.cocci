/// The structure itself: #include <linux/tqueue.h> becomes
/// <linux/workqueue.h> (or goes, when workqueue.h is already included),
/// and struct tq_struct becomes work_t wherever a type is written:
/// declarations, struct members, parameters, return types, casts, sizeof,
/// typedefs, macro arguments.  x.routine and x.data stay as they are:
/// work_t has both.
///
/// Run last: tqueue-sync.cocci and tqueue-init.cocci need to see
/// struct tq_struct.
//
// Confidence: High
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: tq_struct, work_t, tqueue.h, workqueue.h

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

// ------------------------------------------------------------- types

@ty@
position p;
@@
 struct tq_struct@p

@script:python@
p << ty.p;
@@
tqlib.note(p, "work_t", "struct tq_struct -> work_t")

@depends on patch@
typedef work_t;
@@
- struct tq_struct
+ work_t

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
