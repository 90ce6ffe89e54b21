/// Callbacks written for their argument's real type, `void f(struct foo *p)`,
/// and handed to the queue through a cast, `(void *)(void *)f` or
/// `(void (*)(void *))f`, get the type the queue calls them with:
///
///     void f(void *data)
///     {
///             struct foo *p = data;
///
/// (the parameter is __p if the body already uses `data`), their
/// prototypes follow, and the casts go.  This is what the seed does to
/// reiserfs_journal_commit_task_func; calling a function through a
/// pointer of another type is undefined behaviour, the new form is not.
///
/// Only functions defined in the file are changed, and only when a cast of
/// them reaches the queue: INIT_WORK/PREPARE_WORK/DECLARE_WORK (or the
/// TQUEUE forms, or a .routine assignment or initialiser).  Casts of a
/// `void (*)(void *)` parameter are dropped as useless (floppy's
/// schedule_bh); a cast of a function with another signature (e.g.
/// `void f(void)`) stays.  A `(void *)` cast on a pointer-typed data
/// argument is dropped as well.
//
// Confidence: High
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: callback, cast, INIT_WORK, PREPARE_WORK, DECLARE_WORK

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

// A cast function reaching the queue.
@cast_use@
identifier f;
identifier wf = {INIT_WORK, PREPARE_WORK, INIT_TQUEUE, PREPARE_TQUEUE};
type C1, C2;
expression W, D;
@@
(
 wf(W, (C1)(C2)f, D)
|
 wf(W, (C1)f, D)
|
 W.routine = (C1)(C2)f
|
 W.routine = (C1)f
|
 W->routine = (C1)(C2)f
|
 W->routine = (C1)f
)

@script:python@
f << cast_use.f;
@@
tqlib.fact("cast_cb", f)

@cast_decl@
identifier f, x;
type C1, C2;
expression D;
declarer name DECLARE_WORK;
@@
(
 DECLARE_WORK(x, (C1)(C2)f, D);
|
 DECLARE_WORK(x, (C1)f, D);
)

@script:python@
f << cast_decl.f;
@@
tqlib.fact("cast_cb", f)

@cast_init@
identifier f, x;
type T, C1, C2;
@@
(
 T x = { .routine = (C1)(C2)f };
|
 T x = { .routine = (C1)f };
|
 T x = { routine: (C1)(C2)f };
|
 T x = { routine: (C1)f };
)

@script:python@
f << cast_init.f;
@@
tqlib.fact("cast_cb", f)

// ... and defined here as void f(T *p), T not void.
@cb_def@
identifier f : script:python() { tqlib.has_fact("cast_cb", f) };
identifier p;
type T;
@@
 void f(T *p) { ... }

@cb_uses_data@
identifier cb_def.f, cb_def.p;
type cb_def.T;
symbol data;
position pu;
@@
 void f@pu(T *p) { <+... data ...+> }

@script:python@
f << cb_def.f;
pu << cb_uses_data.pu;
@@
tqlib.fact("uses_data", f)

@script:python cb_new@
f << cb_def.f;
T << cb_def.T;
p << cb_def.p;
g;
np;
@@
if T.strip() == "void":
    cocci.include_match(False)
else:
    coccinelle.g = cocci.make_ident(f)
    taken = p == "data" or tqlib.has_fact("uses_data", f)
    coccinelle.np = cocci.make_ident("__" + p if taken else "data")

@cb_pos depends on report || stats@
identifier cb_new.g;
position pd;
@@
 void g@pd(...) { ... }

@script:python@
g << cb_new.g;
pd << cb_pos.pd;
@@
tqlib.note(pd, "callback_cast",
           "%s(): takes void * now, cast to it no more" % g)

@depends on patch@
identifier cb_new.g, cb_new.np, cb_def.p;
type cb_def.T;
@@
 void g(
- T *p
+ void *np
  ) {
+ T *p = np;
  ...
  }

@depends on patch@
identifier cb_new.g, cb_new.np, cb_def.p;
type cb_def.T;
@@
 void g(
- T *p
+ void *np
  );

@depends on patch@
identifier cb_new.g, cb_new.np;
type cb_def.T;
@@
 void g(
- T *
+ void *np
  );

@depends on patch@
identifier cb_new.g;
type C1, C2;
@@
(
- (C1)(C2)g
+ g
|
- (C1)g
+ g
)

// A cast of a function that already takes a void *: useless.
@void_def@
identifier f : script:python() { tqlib.has_fact("cast_cb", f) };
identifier p;
@@
 void f(void *p) { ... }

@script:python@
f << void_def.f;
@@
tqlib.fact("void_cb", f)

@void_proto@
identifier f : script:python() { tqlib.has_fact("cast_cb", f) };
identifier p;
@@
(
 void f(void *p);
|
 void f(void *);
)

@script:python@
f << void_proto.f;
@@
tqlib.fact("void_cb", f)

@depends on patch@
identifier g : script:python() { tqlib.has_fact("void_cb", g) };
identifier wf = {INIT_WORK, PREPARE_WORK, INIT_TQUEUE, PREPARE_TQUEUE};
expression W, D;
type C1, C2;
@@
(
 wf(W,
- (C1)(C2)g
+ g
 , D)
|
 wf(W,
- (C1)g
+ g
 , D)
|
 W.routine =
- (C1)(C2)g
+ g
|
 W.routine =
- (C1)g
+ g
|
 W->routine =
- (C1)(C2)g
+ g
|
 W->routine =
- (C1)g
+ g
)

@depends on patch@
identifier g : script:python() { tqlib.has_fact("void_cb", g) };
identifier x;
expression D;
type C1, C2;
declarer name DECLARE_WORK;
@@
(
 DECLARE_WORK(x,
- (C1)(C2)g
+ g
 , D);
|
 DECLARE_WORK(x,
- (C1)g
+ g
 , D);
)

// A cast of a parameter that already has the right type.
@depends on patch@
identifier fn, fp;
type C1, C2;
@@
 fn(..., void (*fp)(void *), ...) {
 <...
(
- (C1)(C2)fp
+ fp
|
- (C1)fp
+ fp
)
 ...>
 }

// (void *)ptr as the data argument: the macro takes a void * already.
@depends on patch@
identifier wf = {INIT_WORK, PREPARE_WORK};
expression W, F;
type T;
T *D;
@@
 wf(W, F,
- (void *)D
+ D
  )

@depends on patch@
identifier x;
expression F;
type T;
T *D;
declarer name DECLARE_WORK;
@@
 DECLARE_WORK(x, F,
- (void *)D
+ D
  );
