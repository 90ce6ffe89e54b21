/// Optional (-D rename; it changes a structure's API): give task-queue
/// members and variables the names the seed patch gives them,
///
///     tq, tqueue, task -> work        tq_hangup  -> hangup_work
///     SAK_tq           -> SAK_work    floppy_tq  -> floppy_work
///     batch_tqueue     -> batch_work  mce_task   -> mce_work
///
/// i.e. tq/tqueue/task alone become work, a tq_/tqueue_ prefix or a
/// _tq/_tqueue/_task suffix becomes a _work suffix; other names stay.  Only
/// members and variables of type struct tq_struct (or work_t) are renamed,
/// with every use: x.old, p->old, the variable itself.
///
/// When the new name is taken -- another member of the same structure, or
/// any identifier of the file for a file-scope variable, or of the
/// function for a local -- the old name is kept and reported.  Accesses
/// whose type coccinelle knows to be something else are not renamed.
///
/// Headers: run on the headers too.  On one file, the names it declares
/// are renamed; the convert script (--rename) first collects the names of
/// the whole tree, so that a member declared in a header is renamed in
/// every file that uses it (map passed in TQ_RENAME_MAP); it finds them
/// in Python (tqconvert/renames.py), as @mem and @var match them: keep
/// the two in step.  Comments are not changed.  Run first, before the other tqueue-*.cocci files.
///
/// -D renamed (what convert --rename passes): convert has made the renames
/// of members and file-scope variables itself, in the copy it hands spatch
/// (renames.edits(): one pass over the tokens, where each rule below is a
/// pass over every function), and said them; the rules then rename the
/// locals, and the members of the names convert lists in X.typed (a member
/// of that name may be typed otherwise, which coccinelle may know), but
/// not a kept task's (X.kept).
//
// Confidence: Moderate
// Copyright: the workqueue driver-conversion sandbox, GPLv2.
// Options: --include-headers-for-types --all-includes
// Requires: 1.1.1, python
// Keywords: tq_struct, rename, work

virtual patch
virtual report
virtual stats
virtual rename
virtual renamed

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

// -D renamed: see the header; @mem and @var's file-scope names are done
@script:python depends on renamed@
@@
tqlib.set_renamed_mode()

// ----------------------------------------------------------- collect

@mem depends on rename && !renamed@
typedef work_t;
type T;
identifier fld;
position p;
@@
 T { ...
(
 struct tq_struct fld@p;
|
 work_t fld@p;
)
 ... };

@script:python@
T << mem.T;
fld << mem.fld;
p << mem.p;
@@
tqlib.add_member(fld, p, T)

@var depends on rename@
typedef work_t;
identifier x;
initializer i;
declarer name DECLARE_WORK;
expression f, d;
position p;
@@
(
 struct tq_struct x@p;
|
 struct tq_struct x@p = i;
|
 work_t x@p;
|
 DECLARE_WORK(x@p, f, d);
)

@script:python@
x << var.x;
p << var.p;
@@
tqlib.add_var(x, p)

// ----------------------------------------------------------- locals

@script:python lvar@
x << var.x;
p << var.p;
lf;
ln;
@@
fn = p[0].current_element
new = tqlib.local_new(fn, x) if fn != x else None
if new is None:
    cocci.include_match(False)
else:
    coccinelle.lf = cocci.make_ident(fn)
    coccinelle.ln = cocci.make_ident(new)

@depends on rename && patch@
identifier var.x, lvar.lf, lvar.ln;
@@
 lf(...) {
 <...
- x
+ ln
 ...>
 }

@depends on rename && patch@
typedef work_t;
identifier var.x, lvar.lf, lvar.ln;
initializer i;
expression f, d;
declarer name DECLARE_WORK;
@@
 lf(...) {
 ... when any
(
 struct tq_struct
- x
+ ln
 ;
|
 struct tq_struct
- x
+ ln
 = i;
|
 work_t
- x
+ ln
 ;
|
 DECLARE_WORK(
- x
+ ln
 , f, d);
)
 ... when any
 }

// ---------------------------------------------------------- globals

@depends on rename && patch && !renamed@
typedef work_t;
identifier old : script:python() { tqlib.global_new(old) is not None };
fresh identifier new = script:python(old) { tqlib.global_new(old) };
position p : script:python(old) { p[0].current_element == old };
initializer i;
expression f, d;
declarer name DECLARE_WORK;
@@
(
 struct tq_struct
- old@p
+ new
 ;
|
 struct tq_struct
- old@p
+ new
 = i;
|
 work_t
- old@p
+ new
 ;
|
 DECLARE_WORK(
- old@p
+ new
 , f, d);
)

@depends on rename && patch && !renamed@
identifier old : script:python() { tqlib.global_new(old) is not None };
fresh identifier new = script:python(old) { tqlib.global_new(old) };
@@
- old
+ new

// ----------------------------------------------------------- members

// An access whose type coccinelle knows to be something other than a
// task queue (say ->task of type struct task_struct *) keeps its name;
// unknown types go by the name.  Taken just before the rule that renames.
// It matches every typed expression of every function: @acc_typed first
// finds an access to a member that may be so typed (convert lists them
// per file, tqlib.field_typed).
@acc_typed depends on rename@
identifier old : script:python() { tqlib.field_typed(old) };
expression X;
@@
(
 X.old
|
 X->old
)

@acc_other depends on rename && acc_typed@
type T : script:python() { not tqlib.is_tq_type(T) and not tqlib.is_work_type(T) };
T E;
identifier old : script:python() { tqlib.field_new(old) is not None };
expression X;
position p;
@@
(
 E
&
(
 X.old@p
|
 X->old@p
)
)

@script:python@
p << acc_other.p;
@@
tqlib.fact("acc_other", "%s:%s" % (p[0].line, p[0].column))

@depends on rename && patch && (!renamed || acc_typed)@
identifier old : script:python() { tqlib.field_typed(old) };
fresh identifier new = script:python(old) { tqlib.field_new(old) };
expression X;
position p : script:python() { tqlib.field_renamed_at(p) };
@@
(
 X.
- old@p
+ new
|
 X->
- old@p
+ new
)

@depends on rename && patch && (!renamed || acc_typed)@
typedef work_t;
type T;
identifier old : script:python() { tqlib.field_typed(old) };
fresh identifier new = script:python(old) { tqlib.field_new(old) };
@@
 T { ...
(
 struct tq_struct
- old
+ new
 ;
|
 work_t
- old
+ new
 ;
)
 ... };
