"""tqbh - private task queues to workqueues, the maintainers' way.

A 2.4 serial or WAN driver defers work with a task queue of its own:

    static DECLARE_TASK_QUEUE(tq_x);
    queue_task(&info->tqueue, &tq_x);  mark_bh(X_BH);
    static void do_x_bh(void) { run_task_queue(&tq_x); }
    init_bh(X_BH, do_x_bh);  ...  remove_bh(X_BH);

In 2.5.41 the maintainers replaced the queue_task()/mark_bh() pair by
schedule_work(&info->tqueue) and deleted the queue, the bottom half's
handler and its init_bh()/remove_bh(), freeing the BH number.  plan()
finds such queues in the candidates' text and edits() rewrites them
before coccinelle runs, so that their tasks convert like any other work:

  * drained by a bottom half of its own whose handler does nothing else:
    the handler, its prototypes, init_bh(), remove_bh() and every
    mark_bh() of that BH go;
  * drained from the driver's own interrupt, timer, tasklet or bottom-half
    code that does more: the run_task_queue() goes (events runs the tasks);
  * drained from process code (close, ioctl, module exit, code that
    sleeps): run_task_queue() -> flush_scheduled_work(), which waits for
    what was queued, as the synchronous run did;
  * --own-queue: a create_workqueue() queue of the driver's own instead of
    the events queue, created where the bottom half was registered and destroyed
    where it was removed (flush_workqueue() where process code drained it).

A queue used any other way (its emptiness tested, run where the driver
cannot be seen to be in one context or the other, a queue_task() whose
value is used, one name declared in several files and used in others)
stays a task queue; the reason is given, to be reported at its
declaration.  Every routine whose context changes (bottom half, timer,
interrupt -> process) is named, in the form of a demo .moves line:
`routine: queue -> events: why` (the names the demo's monitor reports).

Standard library only; used by convert before any spatch runs.
"""

import re

import tqprep

# members of an operations structure that run in process context
_PROCESS_MEMBERS = {"open", "release", "close", "ioctl", "hangup", "flush", "write", "read",
                    "shutdown", "set_termios", "remove", "cleanup", "stop", "exit", "poll",
                    "mmap", "fsync", "lseek", "llseek", "wait_until_sent", "disconnect"}
_PROCESS_NAME = re.compile(r"(?:^|_)(?:close|ioctl|release|hangup|shutdown|open|cleanup|"
                           r"exit|remove|flush|wait_until_sent|disconnect|detach|stop)$|"
                           r"^cleanup_module$")
# calls that may sleep (and GFP_KERNEL): their caller runs in process context
_SLEEPS = {"schedule", "schedule_timeout", "interruptible_sleep_on", "sleep_on",
           "interruptible_sleep_on_timeout", "sleep_on_timeout", "down", "down_interruptible",
           "copy_from_user", "copy_to_user", "get_user", "put_user", "wait_event",
           "wait_event_interruptible", "vfree", "kernel_thread", "flush_scheduled_tasks",
           "flush_scheduled_work"}


_KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "do", "else", "case",
             "__typeof__", "typeof", "defined"}


class Call:
    """A call statement `name(args);`: tokens i (the name) to end (the
    `;`), its arguments' token ranges, the function it is in."""

    def __init__(self, key, toks, i, end, args, fn):
        self.key, self.i, self.end, self.args, self.fn = key, i, end, args, fn
        self.line = toks[i].line


class FileInfo:
    def __init__(self, key, text):
        self.key = key
        self.text = text
        self.toks = toks = tqprep.scan(text)
        self.funcs = []         # (name, head, lbrace, rbrace)
        for head, lb, rb in tqprep._functions(toks):
            self.funcs.append((tqprep._function_name(toks[head:lb]), head, lb, rb))
        self.declares = {}      # queue -> (first, last token index, static)
        self.externs = {}       # queue -> (first, last)
        self.calls = {}         # name -> [Call]
        self.names = {}         # identifier -> [token index]
        self.contexts = {}      # function name -> set of "irq", "bh", "timer", "process"
        depth = {i: d for i, _, d, _ in tqprep._depths(toks)}
        n = len(toks)
        for i, t in enumerate(toks):
            if t.kind != "ident" or t.pp:
                continue
            self.names.setdefault(t.val, []).append(i)
            if i + 1 < n and toks[i + 1].val == "(" and t.val not in _KEYWORDS:
                k = tqprep._match_close(toks, i + 1)
                if k is None:
                    continue
                if t.val == "DECLARE_TASK_QUEUE" and depth.get(i) == 0 and \
                        k + 1 < n and toks[k + 1].val == ";" and k == i + 3:
                    static = i > 0 and toks[i - 1].val == "static"
                    self.declares[toks[i + 2].val] = (i - 1 if static else i, k + 1, static)
                    continue
                args = tqprep._args(toks, i + 1)
                fn = self.function_at(i)
                end = k + 1 if k + 1 < n and toks[k + 1].val == ";" else None
                self.calls.setdefault(t.val, []).append(Call(key, toks, i, end, args, fn))
            if t.val == "task_queue" and i > 0 and toks[i - 1].val == "extern" and \
                    i + 2 < n and toks[i + 1].kind == "ident" and toks[i + 2].val == ";":
                self.externs[toks[i + 1].val] = (i - 1, i + 2)
        self._contexts()

    def function_at(self, i):
        for name, head, lb, rb in self.funcs:
            if lb < i < rb:
                return (name, head, lb, rb)
        return None

    def arg_text(self, a):
        lo, hi = a
        return self.text[self.toks[lo].start:self.toks[hi - 1].end]

    def arg_name(self, a):
        """q of &q, else None."""
        lo, hi = a
        if hi - lo == 2 and self.toks[lo].val == "&" and self.toks[lo + 1].kind == "ident":
            return self.toks[lo + 1].val
        return None

    def _contexts(self):
        toks = self.toks
        n = len(toks)
        for name, idx in (("request_irq", 1), ("tasklet_init", 1), ("DECLARE_TASKLET", 1),
                          ("DECLARE_TASKLET_DISABLED", 1), ("init_bh", 1)):
            for c in self.calls.get(name, ()):
                if len(c.args) > idx:
                    lo, hi = c.args[idx]
                    f = tqprep._last_name(toks, lo, hi)
                    if f:
                        kind = "bh" if name == "init_bh" else \
                            "irq" if name == "request_irq" else "tasklet"
                        self.contexts.setdefault(f, set()).add(kind)
        for i, t in enumerate(toks):
            if t.kind != "ident" or i + 2 >= n:
                continue
            # x.function = f; { function: f }; .function = f; ops.close = f
            if toks[i + 1].val in ("=", ":") and toks[i + 2].kind == "ident" and \
                    (i + 3 >= n or toks[i + 3].val in (";", ",", "}")) and \
                    (toks[i + 1].val == ":" or (i and toks[i - 1].val in (".", "->"))):
                f = toks[i + 2].val
                if t.val == "function":
                    self.contexts.setdefault(f, set()).add("timer")
                elif t.val in _PROCESS_MEMBERS:
                    self.contexts.setdefault(f, set()).add("process")
        for name, head, lb, rb in self.funcs:
            if name and _PROCESS_NAME.search(name):
                self.contexts.setdefault(name, set()).add("process")
            elif name and any((toks[j].val in _SLEEPS and j + 1 < rb and toks[j + 1].val == "(")
                              or toks[j].val == "GFP_KERNEL" for j in range(lb, rb)):
                self.contexts.setdefault(name, set()).add("process")
        # a function of the file called only from process code of the file
        # (plusb_free_all(), from disconnect and close) is process code
        callers = {}
        for name, head, lb, rb in self.funcs:
            for j in range(lb, rb):
                if toks[j].kind == "ident" and j + 1 < rb and toks[j + 1].val == "(":
                    callers.setdefault(toks[j].val, set()).add(name)
        mine = {f[0] for f in self.funcs if f[0]}
        for _ in range(3):
            for f in sorted(mine):
                if f in self.contexts or f not in callers:
                    continue
                cs = callers[f] - {f}
                # only called (never handed on as a pointer), only from process code
                called = all(j + 1 < n and toks[j + 1].val == "(" for j in self.names[f])
                if cs and called and all(self.contexts.get(c) == {"process"} for c in cs):
                    self.contexts[f] = {"process"}

    # ------------------------------------------------------------ edits

    def line_span(self, lo, hi):
        """Characters of tokens lo..hi, widened to whole lines when they
        stand alone on their lines (a comment after them goes too)."""
        text = self.text
        a, b = self.toks[lo].start, self.toks[hi].end
        ls = text.rfind("\n", 0, a) + 1
        le = text.find("\n", b)
        le = len(text) if le < 0 else le
        before, after = text[ls:a], text[b:le]
        if before.strip() == "" and re.match(r"^\s*(?:/\*.*?\*/\s*|//.*)?$", after):
            le = min(len(text), le + 1)
            # between two blank lines: one of them goes too
            if text[ls - 2:ls] == "\n\n" and text[le:le + 1] == "\n":
                le += 1
            return ls, le
        return a, b

    def body_is(self, func, wanted):
        _, head, lb, rb = func
        return [t.val for t in self.toks[lb + 1:rb]] == wanted


class Plan:
    def __init__(self):
        self.edits = {}         # key -> [(start, end, text)]
        self.notes = {}         # key -> [(offset, text)], offsets in the original text
        self.moves = {}         # key -> [(offset, move)]
        self.kept = {}          # key -> {queue: reason}
        self.residue = {}       # key -> [(function, reason)]: a run kept, to do by hand
        self.converted = []     # (file, queue, events or its own queue's name, [BH freed])

    def edit(self, key, start, end, text):
        self.edits.setdefault(key, []).append((start, end, text))


def plan(texts, mode="events", tq_timer=True, includes=None):
    """texts: {key: text} of the candidates.  mode: events (default),
    own (--own-queue) or keep (--keep-private-queues); tq_timer: its tasks
    become delayed work; includes: {key: [keys of the candidate headers
    it includes]}.  Returns a Plan."""
    out = Plan()
    infos = {}
    owners = {}
    others = {}

    def info(key):
        if key not in infos and key not in others:
            others[key] = FileInfo(key, texts[key])
        return infos.get(key) or others[key]
    for key, text in texts.items():
        if "DECLARE_TASK_QUEUE" not in text and "task_queue" not in text:
            continue
        fi = FileInfo(key, text)
        infos[key] = fi
        for q in fi.declares:
            owners.setdefault(q, []).append(key)
        for q in ("tq_immediate",) + (("tq_timer",) if tq_timer else ()):
            if q not in fi.declares:
                headers = [info(k) for k in (includes or {}).get(key, ()) if k in texts]
                _flush_system_queue(out, fi, q, headers)
    if mode == "keep":
        return out
    for q in sorted(owners):
        if q in tqprep.SYSTEM_QUEUES:
            continue
        own = owners[q]
        users = [k for k, fi in infos.items() if k not in own and q in fi.externs]
        if len(own) > 1 and users:
            for k in own:
                out.kept.setdefault(k, {})[q] = (
                    "%s is declared in %d files and used in others: which one each "
                    "use means is for a person to say" % (q, len(own)))
            continue
        groups = [[k] + users for k in own] if len(own) > 1 else [own + users]
        for files in groups:
            _one_queue(out, q, [infos[k] for k in files], mode, texts)
    return out


def _uses(fi, q):
    """The tokens naming q in fi, by what they are: decl, extern,
    queue_task, run_task_queue or other."""
    out = {"queue": [], "run": [], "other": []}
    for i in fi.names.get(q, ()):
        d = fi.declares.get(q)
        e = fi.externs.get(q)
        if (d and d[0] <= i <= d[1]) or (e and e[0] <= i <= e[1]):
            continue
        found = False
        for name, kind in (("queue_task", "queue"), ("run_task_queue", "run")):
            for c in fi.calls.get(name, ()):
                a = c.args[-1] if c.args else None
                if a and a[0] <= i < a[1] and fi.arg_name(a) == q:
                    out[kind].append(c)
                    found = True
        if not found:
            out["other"].append(i)
    return out


def _one_queue(out, q, files, mode, texts):
    home = files[0]
    wq = queue_name(q) + "_wq"
    uses = {fi.key: _uses(fi, q) for fi in files}
    runners = _runner_tasks(files, q)
    setup = {(fi.key, i) for r in runners for fi, lo, hi in r["uses"] for i in range(lo, hi)}
    for fi in files:
        uses[fi.key]["other"] = [i for i in uses[fi.key]["other"] if (fi.key, i) not in setup]

    def keep(reason):
        out.kept.setdefault(home.key, {})[q] = reason

    nq = sum(len(u["queue"]) for u in uses.values())
    nrun = sum(len(u["run"]) for u in uses.values())
    for fi in files:
        for i in uses[fi.key]["other"]:
            return keep("%s is used otherwise than by queue_task() and run_task_queue() "
                        "(%s at %s:%d), which a workqueue cannot express"
                        % (q, _around(fi, i), fi.key, fi.toks[i].line))
    if not nq:
        return keep("nothing is queued on it in the files that see it")
    for fi in files:
        for c in uses[fi.key]["queue"]:
            if c.end is None or fi.toks[c.i - 1].val not in (";", "{", "}", ")", "else"):
                return keep("the value of queue_task() on it is used (%s:%d)" % (fi.key, c.line))
    # how each run_task_queue() drains it
    drains = []         # (fi, call, kind, function name, bh)
    for fi in files:
        for c in uses[fi.key]["run"]:
            if c.fn is None or c.end is None:
                return keep("run_task_queue(&%s) outside a function body (%s:%d)"
                            % (q, fi.key, c.line))
            name = c.fn[0]
            ctx = set()
            for g in files:
                ctx |= g.contexts.get(name, set())
            bh = None
            for g in files:
                for ib in g.calls.get("init_bh", ()):
                    if len(ib.args) == 2 and tqprep._last_name(g.toks, *ib.args[1]) == name:
                        bh = (g, ib, g.arg_text(ib.args[0]))
            runs = _tasks_with_routine(files, name)
            if bh and fi.body_is(c.fn, ["run_task_queue", "(", "&", q, ")", ";"]):
                kind = "bh-only"
            elif runs:
                kind = "task"
                ctx = runs
            elif ctx & {"bh", "irq", "tasklet", "timer"} and "process" not in ctx:
                kind = "atomic"
            elif "process" in ctx and not ctx & {"bh", "irq", "tasklet", "timer"}:
                kind = "process"
            else:
                return keep("drained in %s() (%s:%d), which convert cannot tell runs in "
                            "interrupt or in process context: by hand, delete that "
                            "run_task_queue() if it ran from interrupt code, make it "
                            "flush_scheduled_work() if from process code"
                            % (name, fi.key, c.line))
            drains.append((fi, c, kind, name, bh, sorted(ctx)))
    for r in runners:
        if not r["queued"]:
            return keep("the task %s that runs it is never queued" % r["task"])
        if r["kind"] == "routine" and not r["runs"]:
            return keep("the task %s has it as its data, but its routine %s() does not run "
                        "it where convert can see" % (r["task"], r["routine"]))
        if any(how == "value" for how, _ in r["queued"]):
            return keep("the value of queueing the task %s that runs it is used" % r["task"])
    if not nrun and not runners:
        return keep("nothing runs it (no run_task_queue(&%s) in the files that see it)" % q)
    own = mode == "own" and any(d[2] == "bh-only" for d in drains)
    if own:
        for d in drains:
            if d[2] == "bh-only" and not d[4][0].calls.get("init_bh"):
                own = False
    # run by a task: its own workqueue made at module init, gone at exit
    module = None
    if mode == "own" and not own and (runners or any(d[2] == "task" for d in drains)):
        module = _module_init_exit(files)
        own = module is not None
        if module is None:
            d = next((fi for fi in files if q in fi.declares), home)
            out.notes.setdefault(d.key, []).append((d.toks[d.declares[q][0]].start, (
                "--own-queue: %s is run by a task, and no module_init()/module_exit() "
                "(or init_module()/cleanup_module()) is there to create and destroy a "
                "workqueue in: its tasks go to the events queue" % q)))
    # the workqueue's name as its threads and the monitor show it
    target = queue_name(q) if own else "events"

    # -- the edits
    # the queue's declaration
    for fi in files:
        d = fi.declares.get(q)
        if d:
            a, b = fi.line_span(d[0], d[1])
            if own:
                static = "static " if d[2] else ""
                out.edit(fi.key, a, b, "%sstruct workqueue_struct *%s;\n" % (static, wq)
                         if b > a and fi.text[b - 1] == "\n" else
                         "%sstruct workqueue_struct *%s;" % (static, wq))
            else:
                out.edit(fi.key, a, b, "")
        e = fi.externs.get(q)
        if e:
            a, b = fi.line_span(e[0], e[1])
            out.edit(fi.key, a, b, ("extern struct workqueue_struct *%s;\n" % wq) if own else "")
    # queue_task(&x, &q) -> schedule_work(&x)
    routines = []
    for fi in files:
        for c in uses[fi.key]["queue"]:
            task = fi.arg_text(c.args[0])
            new = "queue_work(%s, %s)" % (wq, task) if own else "schedule_work(%s)" % task
            out.edit(fi.key, fi.toks[c.i].start, fi.toks[c.end - 1].end, new)
            routines.append((fi, c, task))
    # the drains
    freed = set()
    for fi, c, kind, name, bh, ctx in drains:
        if kind == "bh-only":
            _, head, lb, rb = c.fn
            a, b = fi.line_span(head, rb)
            # the blank line after the function goes with it
            if fi.text[b:b + 1] == "\n":
                b += 1
            out.edit(fi.key, a, b, "")
            for proto in _prototypes(fi, name, head):
                a, b = fi.line_span(*proto)
                out.edit(fi.key, a, b, "")
            g, ib, num = bh
            freed.add(num)
            a, b = g.line_span(ib.i, ib.end)
            if own:
                check = _create_checked(g, ib, wq, out)
                out.edit(g.key, g.toks[ib.i].start, g.toks[ib.end].end,
                         '%s = create_workqueue("%s");%s' % (wq, target, check))
                if ib.fn is not None:
                    _destroy_on_failure(g, ib.fn, ib.end, wq, out)
            else:
                out.edit(g.key, a, b, _empty(g, ib, a, b))
        elif kind in ("atomic", "task"):
            a, b = fi.line_span(c.i, c.end)
            out.edit(fi.key, a, b, _empty(fi, c, a, b))
        else:
            new = "flush_workqueue(%s);" % wq if own else "flush_scheduled_work();"
            out.edit(fi.key, fi.toks[c.i].start, fi.toks[c.end].end, new)
    # the tasks that ran it: their run of it goes
    for r in runners:
        for fi, a, b, new in r["edits"]:
            out.edit(fi.key, a, b, new)
    if module is not None:
        (gi, init, returns_int), (ge, exit_) = module
        _, head, lb, rb = init
        at = _after_declarations(gi, lb, rb)
        indent = "\t"
        out.edit(gi.key, at, at, '%s%s = create_workqueue("%s");\n%s\n' % (
            indent, wq, target, "%sif (!%s)\n%s\treturn -ENOMEM;\n" % (indent, wq, indent)
            if returns_int else ""))
        if returns_int:
            first = next((k for k in range(lb + 1, rb) if gi.toks[k].start >= at), rb)
            _destroy_on_failure(gi, init, first - 1, wq, out)
        _, head, lb, rb = exit_
        line = ge.text.rfind("\n", 0, ge.toks[rb].start) + 1
        out.edit(ge.key, line, line, "%sdestroy_workqueue(%s);\n" % (indent, wq))
    # the freed bottom halves: every mark_bh() and remove_bh() of them
    for fi in infos_of(files):
        for name in ("mark_bh", "remove_bh"):
            for c in fi.calls.get(name, ()):
                if c.end is None or len(c.args) != 1 or fi.arg_text(c.args[0]) not in freed:
                    continue
                a, b = fi.line_span(c.i, c.end)
                if name == "remove_bh" and own:
                    out.edit(fi.key, fi.toks[c.i].start, fi.toks[c.end].end,
                             "destroy_workqueue(%s);" % wq)
                else:
                    out.edit(fi.key, a, b, _empty(fi, c, a, b))
    # what changes context, per routine
    wheres = []
    for fi, c, kind, name, bh, ctx in drains:
        if kind == "bh-only":
            wheres.append("the bottom half %s (%s(), freed)" % (bh[2], name))
        elif kind == "atomic":
            wheres.append("%s() (%s)" % (name, "/".join(x for x in ctx if x != "process")))
        elif kind == "task":
            wheres.append("%s(), the routine of %s" % (name, _queued_as(ctx)))
    for r in runners:
        wheres.append("%s, the task that ran it (%s)" % (
            "%s()" % r["routine"] if r["kind"] == "routine" else "run_task_queue()",
            _queued_as([(r["task"], r["queued"])])))
    how = "flush" if any(d[2] == "process" for d in drains) else None
    for fi, c, task in routines:
        routine = _routine_of([f.text for f in files], texts.values(), task)
        if wheres:
            why = ("%s ran in %s, now in process context (%s)" % (
                task, " and ".join(sorted(set(wheres))), target))
        else:
            why = ("%s ran synchronously where process code drained %s, now in %s; "
                   "the drain waits for it" % (task, q, target))
        if how and wheres:
            why += "; process code waits for it with %s" % (
                "flush_workqueue(%s)" % wq if own else "flush_scheduled_work()")
        if routine:
            out.moves.setdefault(fi.key, []).append((fi.toks[c.i].start, "%s: %s -> %s: %s" % (
                routine, q, target, why)))
        else:
            out.notes.setdefault(fi.key, []).append((fi.toks[c.i].start, "%s%s" % (
                unknown_routine(task), why[len(task):])))
    out.converted.append((home.key, q, target, sorted(freed)))


def unknown_routine(task):
    """A context change note's start, for a task whose routine none of the
    files given sets up (the tty core's flip task, converted with one
    driver): where it is set up is not a file convert was given."""
    return "context change: the routine of %s (set up in none of the files given)" % task


_QUEUE_WORDS = frozenset({"tq", "tqueue", "task", "queue", "tasks"})


def queue_name(q):
    """The name --own-queue gives the workqueue that replaces the private
    task queue q: its words less the task queue's (tq_riscom -> "riscom",
    wanpipe_tq_custom -> "wanpipe"), as many as fit the ten characters
    create_workqueue() takes."""
    words = [w for w in q.split("_") if w and w.lower() not in _QUEUE_WORDS] or [q]
    name = words[0][:10]
    for w in words[1:]:
        if len(name) + 1 + len(w) > 10:
            break
        name += "_" + w
    return name


def _flush_system_queue(out, fi, q, headers=()):
    """run_task_queue(&tq_immediate) or (&tq_timer) in process code (a
    close or release that lets what the interrupts queued run first): its
    tasks are work on the events queue now, so flush_scheduled_work() waits for
    them; nothing where a flush_scheduled_tasks() already follows.  The
    tasks of tq_timer are delayed work, which a flush does not wait for
    while its timer runs: each is cancelled first (_drain_delayed)."""
    for c in fi.calls.get("run_task_queue", ()):
        if c.end is None or c.fn is None or len(c.args) != 1 or fi.arg_name(c.args[0]) != q:
            continue
        ctx = fi.contexts.get(c.fn[0], set())
        if "process" not in ctx or ctx & {"bh", "irq", "tasklet", "timer"}:
            continue
        nxt = fi.toks[c.end + 1].val if c.end + 1 < len(fi.toks) else ""
        flushed = nxt in ("flush_scheduled_tasks", "flush_scheduled_work")
        if q == "tq_timer":
            _drain_delayed(out, fi, c, flushed, headers)
            continue
        if flushed:
            a, b = fi.line_span(c.i, c.end)
            out.edit(fi.key, a, b, _empty(fi, c, a, b))
            what = "dropped: the %s() after it waits for the same work" % nxt
        else:
            out.edit(fi.key, fi.toks[c.i].start, fi.toks[c.end].end, "flush_scheduled_work();")
            what = "-> flush_scheduled_work()"
        out.notes.setdefault(fi.key, []).append((fi.toks[c.i].start, (
            "run_task_queue(&%s) in %s() %s: the tasks queued on %s are work on the "
            "events queue now" % (q, c.fn[0], what, q))))


def _timer_works(files):
    """[(FileInfo, Call)] of queue_task(x, &tq_timer) in files."""
    return [(g, c) for g in files for c in g.calls.get("queue_task", ())
            if len(c.args) == 2 and g.arg_name(c.args[1]) == "tq_timer"]


def _work_path(fi, c):
    """(&, base, member chain) of the work of queue_task(&base->m.n, ...),
    or None where it is not a variable and members (an index, a call)."""
    lo, hi = c.args[0]
    toks = fi.toks
    amp = toks[lo].val == "&"
    k = lo + amp
    if k >= hi or toks[k].kind != "ident":
        return None
    chain = []
    j = k + 1
    while j + 1 < hi and toks[j].val in (".", "->") and toks[j + 1].kind == "ident":
        chain.append(toks[j].val + toks[j + 1].val)
        j += 2
    if j != hi:
        return None
    return amp, toks[k].val, "".join(chain)


def _drain_delayed(out, fi, c, flushed, headers):
    """run_task_queue(&tq_timer) in process code, the tasks queued on
    tq_timer now schedule_delayed_work(): cancel_delayed_work() of each,
    named by the variables of its base's type in scope here (guarded
    where the function tests one for NULL), then flush_scheduled_work()
    (the flush_scheduled_tasks() that follows, if one does).  Where a
    work cannot be named here, the run stays, reported with the edit to
    make by hand."""
    from tqconvert import scope
    toks = fi.toks
    funcs = scope._functions(toks)
    _, head, lb, rb = c.fn
    here = sorted(scope.in_scope(toks, funcs, c.i), key=lambda v: v.at)
    stmts, missing, seen = [], [], set()
    works = _timer_works([fi] + list(headers))
    for g, q in works:
        where = "%s:%d" % (g.key, q.line)
        what = g.arg_text(q.args[0])
        path = _work_path(g, q)
        if path is None:
            missing.append((what, where, "named through an index or a call"))
            continue
        amp, base, chain = path
        gfuncs = funcs if g is fi else scope._functions(g.toks)
        var = scope.declaration_of(g.toks, gfuncs, base, q.i)
        if var is None:
            missing.append((what, where, "where %s is declared was not found" % base))
            continue
        if var.kind == "global":
            names = [(base, False)]
        else:
            names = [(v.name, v.stars > 0 and scope.tested_for_null(toks, lb, rb, v.name))
                     for v in here if v.kind != "global" and v.key == var.key]
        if not names:
            missing.append((what, where, "no variable of type %s %s is in scope here" % (
                var.type, "*" * var.stars)))
            continue
        for name, guard in names:
            expr = "%s%s%s" % ("&" if amp else "", name, chain)
            if expr not in seen:
                seen.add(expr)
                stmts.append((expr, name if guard else None))
    line_of = fi.text.rfind("\n", 0, toks[c.i].start) + 1
    indent = re.match(r"[ \t]*", fi.text[line_of:]).group(0)
    edit = "".join("%scancel_delayed_work(%s);\n" % (indent, e) if not g else
                   "%sif (%s)\n%s\tcancel_delayed_work(%s);\n" % (indent, g, indent, e)
                   for e, g in stmts)
    if not flushed:
        edit += "%sflush_scheduled_work();\n" % indent
    said = ", ".join("cancel_delayed_work(%s)%s" % (e, " if %s" % g if g else "")
                     for e, g in stmts)
    if not works or missing:
        then = "rely on the %s() after it" % fi.toks[c.end + 1].val if flushed else \
            "flush_scheduled_work()"
        if not works:
            why = ("nothing is queued on tq_timer in this file or the headers it includes, "
                   "so convert cannot tell which work it drained")
            hand = "cancel_delayed_work(&w); for each work w queued elsewhere that it drained"
        else:
            why = "convert cannot name here %s" % "; ".join(
                "%s (queued at %s: %s)" % m for m in missing)
            hand = "cancel_delayed_work() of each of those that may be pending%s" % (
                ", and %s" % " ".join("cancel_delayed_work(%s);" % e for e, _ in stmts)
                if stmts else "")
        out.residue.setdefault(fi.key, []).append((c.fn[0], (
            "run_task_queue(&tq_timer) in %s() kept: what it ran is delayed work now "
            "(schedule_delayed_work()), which flush_scheduled_work() does not wait for while "
            "its timer runs, and %s; by hand, in its place: %s, then %s" % (
                c.fn[0], why, hand, then))))
        return
    # the statement is replaced; a branch of its own gets braces
    a, b = fi.line_span(c.i, c.end)
    if a == line_of and fi.toks[c.i - 1].val not in (")", "else"):
        # a comment after the run stays, after what replaces it
        rest = fi.text[toks[c.end].end:b].strip()
        if rest:
            first, _, more = edit.partition("\n")
            edit = "%s  %s\n%s" % (first, rest, more)
        out.edit(fi.key, a, b, edit)
    elif fi.toks[c.i - 1].val in (")", "else"):
        out.edit(fi.key, toks[c.i].start, toks[c.end].end,
                 "{\n" + "".join("\t" + ln + "\n" for ln in edit.splitlines()) + indent + "}")
    else:
        out.edit(fi.key, toks[c.i].start, toks[c.end].end, " ".join(edit.split()))
    out.notes.setdefault(fi.key, []).append((toks[c.i].start, (
        "run_task_queue(&tq_timer) in %s() -> %s%s: what it ran is delayed work now "
        "(schedule_delayed_work()), which flush_scheduled_work() does not wait for while "
        "its timer runs; a work whose timer is stopped does not run (run_task_queue() "
        "ran it)" % (c.fn[0], said, ", then the %s() after it" % fi.toks[c.end + 1].val
                     if flushed else ", flush_scheduled_work()"))))


def _norm(text):
    return re.sub(r"\s+", "", text)


def _statement(fi, i):
    """(first, last) token indices of the statement holding toks[i]."""
    toks = fi.toks
    lo = i
    depth = 0
    while lo > 0:
        v = toks[lo - 1].val
        if v in (")", "]"):
            depth += 1
        elif v in ("(", "["):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (v in (";", "{", "}") or toks[lo - 1].pp):
            break
        lo -= 1
    hi = i
    depth = 0
    while hi < len(toks):
        v = toks[hi].val
        if v in ("(", "[", "{"):
            depth += 1
        elif v in (")", "]", "}"):
            depth -= 1
        elif v == ";" and depth <= 0:
            break
        hi += 1
    return lo, hi


def _queueings(files, task):
    """[(how, queue)]: how the task (its text, `x` or `p->x`) is queued:
    queue_task(&task, &q) ("queue", q) or schedule_task(&task)
    ("schedule", "keventd"); ("value", q) where the call's value is used."""
    out = []
    want = "&" + _norm(task)
    for fi in files:
        for name in ("queue_task", "schedule_task"):
            for c in fi.calls.get(name, ()):
                if not c.args or _norm(fi.arg_text(c.args[0])) != want:
                    continue
                q = fi.arg_name(c.args[-1]) if name == "queue_task" and len(c.args) == 2 \
                    else "keventd"
                used = c.end is None or fi.toks[c.i - 1].val not in (";", "{", "}", ")", "else")
                out.append(("value" if used else "queue" if name == "queue_task" else "schedule",
                            q or "?"))
    return out


def _setups(files):
    """[(fi, task text, routine text, data token range or None, set-up
    token ranges)] of the tasks whose routine the files set: INIT_TQUEUE()
    and PREPARE_TQUEUE(), `t.routine = f;` (with `t.data = d;`), and
    `struct tq_struct t = { routine: f, data: d }`."""
    out = []
    for fi in files:
        toks = fi.toks
        for name in ("INIT_TQUEUE", "PREPARE_TQUEUE"):
            for c in fi.calls.get(name, ()):
                if len(c.args) == 3:
                    task = re.sub(r"^&\s*", "", fi.arg_text(c.args[0]))
                    out.append((fi, task, _bare(fi.arg_text(c.args[1])), c.args[2],
                                [_statement(fi, c.i)]))
        for i, t in enumerate(toks):
            if t.val == "tq_struct" and i and toks[i - 1].val == "struct" and \
                    i + 3 < len(toks) and toks[i + 1].kind == "ident" and \
                    toks[i + 2].val == "=" and toks[i + 3].val == "{":
                k = tqprep._match_close(toks, i + 3, "{", "}")
                if k is None:
                    continue
                fields = {}
                for lo, hi in tqprep._args(_Braces(toks), i + 3):
                    if hi - lo >= 3 and toks[lo].val == "." and toks[lo + 2].val == "=":
                        fields[toks[lo + 1].val] = (lo + 3, hi)
                    elif hi - lo >= 2 and toks[lo + 1].val == ":":
                        fields[toks[lo].val] = (lo + 2, hi)
                if "routine" in fields:
                    r = fields["routine"]
                    out.append((fi, toks[i + 1].val, _bare(fi.arg_text(r)), fields.get("data"),
                                [_statement(fi, i)]))
            elif t.val == "routine" and i >= 2 and toks[i - 1].val in (".", "->") and \
                    i + 1 < len(toks) and toks[i + 1].val == "=":
                lo, hi = _statement(fi, i)
                if lo > i - 2:
                    continue
                task = fi.text[toks[lo].start:toks[i - 2].end]
                data, stmts = None, [(lo, hi)]
                for j, u in enumerate(toks):
                    if u.val == "data" and j >= 2 and toks[j - 1].val in (".", "->") and \
                            j + 1 < len(toks) and toks[j + 1].val == "=":
                        dlo, dhi = _statement(fi, j)
                        if _norm(fi.text[toks[dlo].start:toks[j - 1].start]) == _norm(task):
                            data = (j + 2, dhi)
                            stmts.append((dlo, dhi))
                out.append((fi, task, _bare(fi.text[toks[i + 2].start:toks[hi - 1].end]), data,
                            stmts))
    return out


class _Braces:
    """A token list whose `{` reads as `(`, for tqprep._args on an
    initialiser."""

    def __init__(self, toks):
        self.toks = toks

    def __len__(self):
        return len(self.toks)

    def __getitem__(self, i):
        t = self.toks[i]
        if t.val in ("{", "}"):
            return _Val("(" if t.val == "{" else ")")
        if t.val in ("(", ")"):
            return _Val("[" if t.val == "(" else "]")
        return t


class _Val:
    def __init__(self, val):
        self.val = val


def _bare(text):
    """A routine's name, less the casts and & it was handed through."""
    m = re.search(r"(\w+)\s*$", text)
    return m.group(1) if m else text


def _tasks_with_routine(files, name):
    """[(task, [(how, queue)])] of the tasks whose routine is name and
    that are queued somewhere."""
    out = []
    for fi, task, routine, data, stmts in _setups(files):
        if routine == name:
            q = _queueings(files, task)
            if q:
                out.append((task, q))
    return out


def _queued_as(tasks):
    """How the tasks that ran a queue were run, in words."""
    words = {"tq_immediate": "the immediate bottom half", "tq_timer": "the timer bottom half",
             "keventd": "keventd", "tq_scheduler": "schedule()"}
    hows = sorted({words.get(q, q) for _, qs in tasks for _, q in qs})
    return "%s, run by %s" % (" and ".join(sorted({t for t, _ in tasks})), " and ".join(hows))


def _runner_tasks(files, q):
    """The tasks whose data is &q and that run it: their routine is
    run_task_queue itself (kind "runs": the task only ran the queue and
    goes, with its set-up and its queueing), or a routine that runs its
    data (kind "routine": that run goes, the data becomes NULL).  Each a
    dict: task, kind, routine, queued, runs, uses (the token ranges of
    &q in the set-ups), edits [(fi, start, end, new)]."""
    out = []
    for fi, task, routine, data, stmts in _setups(files):
        if data is None:
            continue
        lo, hi = data
        names = [fi.toks[j].val for j in range(lo, hi) if fi.toks[j].kind == "ident"]
        if not names or names[-1] != q or fi.toks[hi - 2].val != "&":
            continue
        r = {"task": task, "routine": routine, "queued": _queueings(files, task),
             "uses": [(fi, hi - 1, hi)], "edits": [], "runs": False}
        if routine == "run_task_queue":
            r["kind"] = "runs"
            r["runs"] = True
            for a, b in stmts:
                x, y = fi.line_span(a, b)
                r["edits"].append((fi, x, y, ""))
            for g in files:
                for name in ("queue_task", "schedule_task"):
                    for c in g.calls.get(name, ()):
                        if c.args and _norm(g.arg_text(c.args[0])) == "&" + _norm(task) and \
                                c.end is not None:
                            x, y = g.line_span(c.i, c.end)
                            r["edits"].append((g, x, y, _empty(g, c, x, y)))
        else:
            r["kind"] = "routine"
            dl = fi.toks[lo].start
            r["edits"].append((fi, dl, fi.toks[hi - 1].end, "NULL"))
            for g in files:
                fn = next((f for f in g.funcs if f[0] == routine), None)
                if fn is None:
                    continue
                _, head, flb, frb = fn
                for c in g.calls.get("run_task_queue", ()):
                    if not (flb < c.i < frb) or c.end is None or len(c.args) != 1:
                        continue
                    var = g.arg_name(c.args[0])
                    if var is not None:
                        continue        # run_task_queue(&other): not its data
                    x, y = g.line_span(c.i, c.end)
                    r["edits"].append((g, x, y, _empty(g, c, x, y)))
                    r["runs"] = True
                    v = tqprep._last_name(g.toks, *c.args[0])
                    uses = [j for j in g.names.get(v, ()) if flb < j < frb]
                    decl = [j for j in uses if g.toks[j - 1].val == "*" and
                            g.toks[j - 2].val == "task_queue"]
                    if v and len(decl) == 1 and len(uses) == 2:
                        dlo, dhi = _statement(g, decl[0])
                        x, y = g.line_span(dlo, dhi)
                        # the blank line after the body's only declaration goes too
                        if g.text[x - 2:x] == "{\n" and g.text[y:y + 1] == "\n":
                            y += 1
                        r["edits"].append((g, x, y, ""))
        out.append(r)
    return out


def _create_checked(fi, ib, wq, out):
    """What follows the create_workqueue() that took the place of the
    init_bh() call @ib: where init_bh() was its function's first
    statement and the function returns int (a module's init), a test
    returning -ENOMEM, since nothing is taken yet to give back; elsewhere
    nothing, and a note that the failure is not tested (what init took
    before it would have to be given back, by hand)."""
    if ib.fn is not None:
        name, head, lb, rb = ib.fn
        words = [t.val for t in fi.toks[head:lb]]
        line = fi.text.rfind("\n", 0, fi.toks[ib.i].start) + 1
        indent = fi.text[line:fi.toks[ib.i].start]
        if name in words and "int" in words[:words.index(name)] and \
                "*" not in words[:words.index(name)] and not indent.strip() and \
                _after_declarations(fi, lb, rb) == line:
            return "\n%sif (!%s)\n%s\treturn -ENOMEM;" % (indent, wq, indent)
    out.notes.setdefault(fi.key, []).append((fi.toks[ib.i].start, (
        "--own-queue: create_workqueue() may fail, and %s is not tested for it here: "
        "what was taken before must be given back, by hand" % wq)))
    return ""


_FAILED = re.compile(r"-?\s*\(?\s*-?\s*(E[A-Z0-9]+|[1-9][0-9]*)\s*\)?\Z")


def _destroy_on_failure(fi, fn, after, wq, out):
    """In function @fn, which creates the queue @wq at token @after: each
    return of a failure after it (a non-zero constant, -EBUSY, 1 as 2.4's
    inits returned) destroys the queue first, or init's failure leaves it
    and its workers behind; a return of anything else is noted, for
    whether it is a failure is the author's to say."""
    name, head, lb, rb = fn
    toks = fi.toks
    for k in range(after + 1, rb):
        if toks[k].val != "return" or toks[k].pp:
            continue
        end = k + 1
        while end < rb and toks[end].val != ";":
            end += 1
        expr = fi.text[toks[k + 1].start:toks[end - 1].end] if end > k + 1 else ""
        if expr in ("", "0"):
            continue
        if not _FAILED.match(expr):
            out.notes.setdefault(fi.key, []).append((toks[k].start, (
                "--own-queue: %s() returns %s after %s is created: if that is a failure, "
                "destroy_workqueue(%s) first, by hand" % (name, expr, wq, wq))))
            continue
        line = fi.text.rfind("\n", 0, toks[k].start) + 1
        indent = fi.text[line:toks[k].start]
        prev = toks[k - 1].val
        if indent.strip():
            continue  # not alone on its line: left as it is
        if prev in (")", "else"):
            # the statement of an if or else: braced, as the kernel writes it
            outer = indent[:-1] if indent.endswith("\t") else indent
            out.edit(fi.key, toks[k - 1].end, toks[k - 1].end, " {")
            out.edit(fi.key, line, line, "%sdestroy_workqueue(%s);\n" % (indent, wq))
            out.edit(fi.key, toks[end].end, toks[end].end, "\n%s}" % outer)
        else:
            out.edit(fi.key, line, line, "%sdestroy_workqueue(%s);\n" % (indent, wq))


def _module_init_exit(files):
    """((FileInfo, init function, returns int), (FileInfo, exit function))
    of the module the files make: module_init(f)/module_exit(f), or
    init_module()/cleanup_module(); None without both."""
    init = exit_ = None
    for fi in files:
        for macro, which in (("module_init", "init"), ("module_exit", "exit")):
            for c in fi.calls.get(macro, ()):
                if c.fn is None and len(c.args) == 1:
                    name = tqprep._last_name(fi.toks, *c.args[0])
                    for g in files:
                        f = next((f for f in g.funcs if f[0] == name), None)
                        if f is not None:
                            if which == "init":
                                init = (g, f)
                            else:
                                exit_ = (g, f)
        for f in fi.funcs:
            if f[0] == "init_module" and init is None:
                init = (fi, f)
            elif f[0] == "cleanup_module" and exit_ is None:
                exit_ = (fi, f)
    if init is None or exit_ is None:
        return None
    g, f = init
    head = [t.val for t in g.toks[f[1]:f[2]]]
    returns_int = "int" in head[:head.index(f[0])] if f[0] in head else False
    return (g, f, returns_int), exit_


_DECL_START = frozenset({"int", "unsigned", "long", "short", "char", "struct", "static",
                         "const", "volatile", "register", "u8", "u16", "u32", "u64",
                         "unsigned", "signed", "void", "union", "enum", "float", "double"})


def _after_declarations(fi, lb, rb):
    """The offset of the line where the first statement after the local
    declarations of the body toks[lb..rb] starts."""
    toks = fi.toks
    j = lb + 1
    while j < rb:
        t = toks[j]
        decl = t.val in _DECL_START or (
            t.kind == "ident" and j + 2 < rb and
            (toks[j + 1].kind == "ident" or
             (toks[j + 1].val == "*" and toks[j + 2].kind == "ident")) and
            toks[j + 2].val not in ("(",))
        if not decl or t.pp:
            break
        lo, hi = _statement(fi, j)
        j = hi + 1
    at = toks[j].start if j < rb else toks[rb].start
    return fi.text.rfind("\n", 0, at) + 1


def infos_of(files):
    return files


def _around(fi, i):
    """The call whose argument toks[i] is, as `name(...)`, else the name."""
    for name, calls in fi.calls.items():
        for c in calls:
            if c.args and c.args[0][0] <= i < c.args[-1][1]:
                return "%s(%s)" % (name, fi.text[fi.toks[c.args[0][0]].start:
                                                 fi.toks[c.args[-1][1] - 1].end])
    return fi.toks[i].val


def _empty(fi, c, a, b):
    """What a deleted call statement leaves: nothing, or `;` where it was
    the body of an if, else, while or for."""
    prev = fi.toks[c.i - 1].val if c.i else ";"
    if prev in (")", "else"):
        return ";" if fi.text[b - 1:b] != "\n" else fi.text[a:fi.toks[c.i].start] + ";\n"
    return ""


def _prototypes(fi, name, head):
    """(first, last) token ranges of `[static] void name(void);` at file
    scope, before the function's definition."""
    out = []
    toks = fi.toks
    for i in fi.names.get(name, ()):
        if i >= head or i + 1 >= len(toks) or toks[i + 1].val != "(":
            continue
        k = tqprep._match_close(toks, i + 1)
        if k is None or k + 1 >= len(toks) or toks[k + 1].val != ";":
            continue
        j = i
        while j > 0 and toks[j - 1].val not in (";", "}", "{") and not toks[j - 1].pp:
            j -= 1
        if fi.function_at(i) is None:
            out.append((j, k + 1))
    return out


def _routine_of(local, others, task):
    """The routine set for task in the texts local (the task's own files)
    or, for a member of a member (`&tty->flip.tqueue`, the same wherever
    it is set), in others too: INIT_TQUEUE(&..tqueue, f, ..),
    ..tqueue.routine = f, or an initialiser of a plain task."""
    parts = re.findall(r"\w+", task)
    if not parts:
        return None
    plain = re.fullmatch(r"&?\s*\w+", task.strip()) is not None
    chain = parts[-2:] if len(parts) >= 3 else parts[-1:]
    m = r"\s*(?:\.|->)\s*".join(map(re.escape, chain))
    # (void *), (void (*)(void *)), and a routine's & (&f is f)
    cast = r"(?:\((?:[^()]|\([^()]*\))*\)\s*)*&?\s*"
    # each with the words a text must hold for it to match: most of the
    # texts searched have none, and a search fails faster on a word
    pats = [(r"\b(?:INIT_TQUEUE|PREPARE_TQUEUE|INIT_WORK|PREPARE_WORK)\s*\(\s*&?[\w.>\s-]*?"
             r"\b%s\s*,\s*%s(\w+)" % (m, cast), ("_TQUEUE", "_WORK")),
            (r"\b%s\s*(?:\.|->)\s*routine\s*=\s*%s(\w+)" % (m, cast), ("routine",))]
    if plain:
        pats.append((r"\b%s\s*=\s*\{[^}]*?routine\s*[:=]\s*%s(\w+)" % (m, cast), ("routine",)))
        pats.append((r"\b%s\s*=\s*\{\s*\{[^}]*\}\s*,\s*\w+\s*,\s*%s(\w+)" % (m, cast),
                     ("{",)))
        pats.append((r"\bDECLARE_WORK\s*\(\s*%s\s*,\s*%s(\w+)" % (m, cast), ("DECLARE_WORK",)))
    texts = list(local) + (list(others) if len(parts) >= 3 else [])
    for text in texts:
        if chain[-1] not in text or re.search(m, text) is None:
            continue
        for p, words in pats:
            if not any(w in text for w in words):
                continue
            hit = re.search(p, text)
            if hit and hit.group(1) not in ("NULL", "0"):
                return hit.group(1)
    return None


def apply(text, edits):
    """(text with the edits made, where(offset) -> the offset in it of an
    offset of text).  Ranges do not overlap; an edit inside another's
    range is dropped."""
    out = []
    pos = 0
    shifts = []         # (offset in text, shift from there on)
    shift = 0
    for a, b, new in sorted(set(edits)):
        if a < pos:
            continue
        out.append(text[pos:a])
        out.append(new)
        shift += len(new) - (b - a)
        shifts.append((b, shift))
        pos = b
    out.append(text[pos:])

    def where(off):
        s = 0
        for b, sh in shifts:
            if off >= b:
                s = sh
        return off + s
    return "".join(out), where
