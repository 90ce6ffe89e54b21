"""--rename's map over the whole tree: which task-queue members and
file-scope variables are renamed, each everywhere or nowhere.

The names are found in Python, in the text coccinelle reads with no body
blanked (X.full), the way tqueue-rename's @mem and @var rules find them:
a spatch pass of its own over the files that declare one cost a spatch
start-up per group of files, a fifth of the default conversion's time.
What those rules match, and so what declared() finds:

  * a member `struct tq_struct m;` or `work_t m;` (several names to a
    line too) of a structure or union defined at file scope by itself
    (`struct s { ... };`) or under one typedef name (`typedef struct
    { ... } s_t;`); not in a structure nested in another, nor in one
    defined with a variable or a second name (`struct s { ... } v;`);
  * a file-scope variable `struct tq_struct x;` (extern, static, with an
    initialiser), `work_t x;` or DECLARE_WORK(x, f, d);
  * not an array nor a pointer; not in `#if 0` code nor in the #else of
    `#if 1`; in every branch of any other conditional, the braces
    counted as in its first live branch.
"""

import bisect
import os

import tqlib
import tqprep

from .prepare import _API_NAMES, full_text, old_tokens

_QUALIFIERS = frozenset({"static", "extern", "const", "volatile", "register"})


def events(toks):
    """The tokens outside preprocessor lines, in order, as ("tok", token),
    with the conditionals around them as ("if", n), ("else", n),
    ("endif", n); code coccinelle skips (#if 0, the #else of #if 1) left
    out."""
    out = []
    frames = []         # [n, this branch dead, every later branch dead]
    dead = 0
    seq = 0
    i, n = 0, len(toks)
    while i < n:
        t = toks[i]
        if not t.pp:
            if not dead:
                out.append(("tok", t))
            i += 1
            continue
        j = i
        while j < n and toks[j].pp and toks[j].line == t.line:
            j += 1
        if t.val == "#" and j - i > 1:
            d = toks[i + 1].val
            cond = [x.val for x in toks[i + 2:j]]
            if d in ("if", "ifdef", "ifndef"):
                seq += 1
                now = d == "if" and cond == ["0"]
                frames.append([seq, now, d == "if" and cond == ["1"]])
                if not dead:
                    out.append(("if", seq))
                dead += now
            elif d in ("elif", "else") and frames:
                f = frames[-1]
                dead -= f[1]
                f[1] = f[2] or (d == "elif" and cond == ["0"])
                if not dead:
                    out.append(("else", f[0]))
                dead += f[1]
            elif d == "endif" and frames:
                f = frames.pop()
                dead -= f[1]
                if not dead:
                    out.append(("endif", f[0]))
        i = j
    return out


def _declarators(ev, k, typed):
    """[Tok] of the plain names declared by the declaration whose
    type ends before ev[k]: `a, b;`, `x = {...};` (typed == "init"), not
    `*p` nor `a[2]`."""
    out = []
    n = len(ev)
    while k < n and ev[k][0] == "tok":
        t = ev[k][1]
        nxt = ev[k + 1][1].val if k + 1 < n and ev[k + 1][0] == "tok" else None
        if t.kind == "ident" and (nxt in (",", ";") or nxt == "=" and typed == "init"):
            out.append(t)
        depth = 0
        while k < n and ev[k][0] == "tok":
            v = ev[k][1].val
            if v in ("(", "[", "{"):
                depth += 1
            elif v in (")", "]", "}"):
                depth -= 1
            elif depth == 0 and v in (",", ";"):
                break
            k += 1
        if k >= n or ev[k][0] != "tok" or ev[k][1].val == ";":
            break
        k += 1
    return out


def _declaration(ev, k, scope):
    """The names the declaration starting at ev[k] declares, as
    tqueue-rename's rules find them in scope "member" or "global"."""
    n = len(ev)

    def val(j):
        return ev[j][1].val if j < n and ev[j][0] == "tok" else None
    while val(k) in _QUALIFIERS:
        k += 1
    if val(k) == "struct" and val(k + 1) == "tq_struct":
        return _declarators(ev, k + 2, "init" if scope == "global" else None)
    if val(k) == "work_t":
        return _declarators(ev, k + 1, None)
    if scope == "global" and val(k) == "DECLARE_WORK" and val(k + 1) == "(" and \
            k + 2 < n and ev[k + 2][0] == "tok" and ev[k + 2][1].kind == "ident" and \
            val(k + 3) == ",":
        return [ev[k + 2][1]]
    return []


def declared(text, toks=None):
    """[(kind, name, line)] of the members ("member") and file-scope
    variables ("global") of a task's or a work's type that text declares,
    as tqueue-rename.cocci's @mem and @var rules collect them."""
    return [(kind, t.val, t.line) for kind, t in declared_tokens(text, toks)]


def declared_tokens(text, toks=None):
    """declared(), with the declarator's token for a name and line."""
    ev = events(tqprep.scan(text) if toks is None else toks)
    out = []
    # the state a conditional's branches each start from: the braces open
    # (kinds "function", "struct", "other"), the file-scope statement's
    # tokens so far, where its structure closed, the token before
    state = ([], [], None, None)
    frames = {}         # n -> [state at #if, state after the first live branch]
    pending = []        # members of the file-scope structure being read
    for k, (kind, x) in enumerate(ev):
        if kind == "if":
            frames[x] = [_copy(state), None]
            continue
        if kind in ("else", "endif"):
            f = frames.get(x)
            if f is None:
                continue
            if f[1] is None:
                f[1] = _copy(state)
            state = _copy(f[0] if kind == "else" else f[1])
            if kind == "endif":
                del frames[x]
            continue
        stack, head, closed, prev = state
        t = x
        v = t.val
        if stack and stack[0] == "function":
            if v == "{":
                stack.append("other")
            elif v == "}":
                stack.pop()
                if not stack:
                    head = []
            state = (stack, head, closed, v)
            continue
        if v == "{":
            if not stack and tqprep._function_head(head):
                stack.append("function")
            elif head and (head[-1].val in ("struct", "union") or len(head) >= 2 and
                           head[-1].kind == "ident" and head[-2].val in ("struct", "union")):
                stack.append("struct")
            else:
                stack.append("other")
        elif v == "}":
            if stack:
                top = stack.pop()
                if not stack and top == "struct":
                    closed = len(head) + 1
        elif prev in (None, ";", "{", "}") and (not stack or stack == ["struct"]):
            scope = "member" if stack else "global"
            for tok in _declaration(ev, k, scope):
                (pending if stack else out).append((scope, tok))
        head = head + [t] if v != ";" or stack else []
        if v == ";" and not stack:
            if pending and closed is not None and _lone_definition(state[1], closed):
                out.extend(pending)
            pending = []
            closed = None
        state = (stack, head, closed, v)
    return out


def _copy(state):
    return (list(state[0]), list(state[1]), state[2], state[3])


def _lone_definition(head, closed):
    """Does the file-scope statement head (up to its `;`), a structure's
    definition closing at head[closed - 1], define the structure alone,
    or under one typedef name?"""
    rest = head[closed:]
    return not rest or (len(rest) == 1 and rest[0].kind == "ident" and
                        head[0].val == "typedef")


def collect(text):
    """[(kind, old, new, why)] for each name declared() finds in text that
    the seed patch renames: why is None, or why the new name cannot be
    had here (tqlib.add_member's and add_var's checks: another member of
    the structure, any name of the file for a variable)."""
    out = []
    toks = None
    for kind, old, line in declared(text):
        new = tqlib.new_name(old)
        if not new:
            continue
        toks = toks or tqlib.tokens(text)
        why = None
        if kind == "member":
            i = tqlib._find(toks, old, line)
            blk = tqlib.enclosing_block(toks, i) if i is not None else None
            if blk and new in tqlib.identifiers(toks, blk[0], blk[1], members=True):
                why = "'%s' is already a member of its structure" % new
        elif new in tqlib.identifiers(toks):
            why = "'%s' is already used in this file" % new
        out.append((kind, old, new, why))
    return out


_HANDLERS = ("init_bh", "request_irq", "tasklet_init", "DECLARE_TASKLET",
             "DECLARE_TASKLET_DISABLED")
_QUEUEING = frozenset({"queue_task", "schedule_task", "flush_scheduled_tasks", "run_task_queue",
                       "queue_work", "schedule_work", "schedule_delayed_work"})
_BITOPS = frozenset({"test_and_set_bit", "test_and_clear_bit", "set_bit", "clear_bit",
                     "test_bit"})
_SETUPS = frozenset({"INIT_TQUEUE", "PREPARE_TQUEUE", "INIT_WORK", "PREPARE_WORK",
                     "DECLARE_WORK"})

_HABITS = {}
_FILE_HABITS = {}           # id(entry) -> (its text, _habits_of() of it)


def _habits_of(e):
    """What habits() reads of one file, once for the text it has: the
    routines it hands to a task, the functions it registers as handlers,
    and per function defined, (name, does it queue, [(flag, is it a
    member)] its bit operations touch)."""
    memo = _FILE_HABITS.get(id(e))
    if memo is not None and memo[0] is e.old:
        return memo[1]
    toks = old_tokens(e)
    routines, handlers, funcs = set(), set(), []
    for i, t in enumerate(toks):
        if t.kind != "ident" or i + 1 >= len(toks):
            continue
        if t.val in _SETUPS and toks[i + 1].val == "(":
            args = tqprep._args(toks, i + 1)
            if len(args) >= 2:
                f = tqprep._last_name(toks, *args[1])
                if f:
                    routines.add(f)
        elif t.val == "routine" and toks[i + 1].val in ("=", ":"):
            k = i + 2
            while k < len(toks) and toks[k].val not in (";", ",", "}"):
                k += 1
            f = tqprep._last_name(toks, i + 2, k)
            if f:
                routines.add(f)
        elif t.val in _HANDLERS and toks[i + 1].val == "(":
            args = tqprep._args(toks, i + 1)
            if len(args) >= 2:
                handlers.add(tqprep._last_name(toks, *args[1]))
        elif t.val == "function" and i and toks[i - 1].val in (".", "->") and \
                toks[i + 1].val == "=" and i + 2 < len(toks):
            handlers.add(toks[i + 2].val)
    for head, lb, rb in tqprep._functions(toks):
        name = tqprep._function_name(toks[head:lb])
        if not name:
            continue
        body = {t.val for t in toks[lb:rb]}
        flagged = []
        for j in range(lb, rb):
            if toks[j].val in _BITOPS and j + 1 < rb and toks[j + 1].val == "(":
                for lo, hi in tqprep._args(toks, j + 1)[1:2]:
                    last = tqprep._last_name(toks, lo, hi)
                    if last and tqlib.flag_name(last):
                        flagged.append((last, hi - lo >= 2 and toks[hi - 2].val in (".", "->")))
        funcs.append((name, bool(body & _QUEUEING), flagged))
    out = (routines, handlers, funcs)
    # the entry is held by the caller for the whole run: its id stays its own
    _FILE_HABITS[id(e)] = (e.old, out)
    return out


def habits(cands):
    """The maintainers' names beyond the tasks themselves, over the tree:
    {"functions": {old: new}, "flag_fields": {old: new}, "flag_globals":
    {old: new}, "blocked": {old: why}}.

      * a task's routine named as a task or a bottom half (chdlc_bh ->
        chdlc_work): tqlib.routine_name();
      * a function named after the task-queue call it makes
        (sa1100fb_schedule_task -> sa1100fb_schedule_work):
        tqlib.helper_name();
      * a flag a bit operation tests or sets in a function that queues a
        task, or in a task's routine (bh_active -> work_active):
        tqlib.flag_name(), a member if reached through . or ->;

    never a function a bottom half, an interrupt, a tasklet or a timer is
    registered with (it stays one), and never a name another file or a
    structure of the tree already has: every use is renamed, or none."""
    key = tuple(sorted(e.shown for e in cands))
    if key in _HABITS:
        return _HABITS[key]
    defined, handlers, routines, helpers, flags = {}, set(), set(), set(), {}
    files = []
    for e in cands:
        code = tqlib.facts(e.old).code
        if any(w in code for w in ("task", "tq", "_bh", "WORK")):
            files.append((e, _habits_of(e)))
    # first the routines and the handlers, then who uses what
    for e, (mine, theirs, _) in files:
        routines |= mine
        handlers |= theirs
    for e, (_, _, funcs) in files:
        for name, queues, flagged in funcs:
            defined.setdefault(name, e)
            if queues and tqlib.helper_name(name):
                helpers.add(name)
            if not queues and name not in routines:
                continue
            for last, member in flagged:
                flags.setdefault(last, member)
    functions = {}
    api = set(tqlib.LEGACY) | _QUEUEING | _API_NAMES
    for f in sorted(routines | helpers):
        # not the task queue's own calls (i2o_lan's routine run_task_queue)
        if f in handlers or f not in defined or f in api or \
                os.path.basename(defined[f].shown) in ("tqueue.h", "workqueue.h", "sched.h"):
            continue
        new = tqlib.helper_name(f) if f in helpers else tqlib.routine_name(f)
        if new:
            functions[f] = new
    flag_fields = {f: tqlib.flag_name(f) for f, member in flags.items() if member}
    flag_globals = {f: tqlib.flag_name(f) for f, member in flags.items() if not member}
    blocked = {}
    news = {}
    for table in (functions, flag_fields, flag_globals):
        for old, new in table.items():
            news.setdefault(new, []).append(old)
    for new, olds in news.items():
        if len(olds) > 1:
            for old in olds:
                blocked[old] = "'%s' would also be the name of %s" % (
                    new, ", ".join(o for o in olds if o != old))
    for table in (functions, flag_fields, flag_globals):
        for old, new in list(table.items()):
            if old in blocked:
                continue
            for e in cands:
                names = tqlib.facts(e.old).names
                if old in names and new in names:
                    blocked[old] = "'%s' is already used in %s" % (new, e.shown)
                    break
    for table in (functions, flag_fields, flag_globals):
        for old in list(table):
            if old in blocked:
                del table[old]
    out = {"functions": functions, "flag_fields": flag_fields, "flag_globals": flag_globals,
           "blocked": blocked}
    _HABITS.clear()
    _HABITS[key] = out
    return out


def rename_map(decl, entries):
    """Collect the task-queue names the files of decl declare, and decide
    once for the whole tree which may be renamed: a member's name
    everywhere, or not at all; a file-scope variable's likewise, and only
    if its new name is free in every file of entries that mentions it."""
    fields, fields_blocked, globals_, globals_blocked = {}, {}, {}, {}
    for e in decl:
        for kind, old, new, why in collect(full_text(e)):
            if kind == "member":
                if why:
                    fields_blocked[old] = why
                else:
                    fields[old] = new
            elif why:
                globals_blocked[old] = why
            else:
                globals_[old] = new
    # a variable kept on a private queue stays a struct tq_struct, and its
    # name with it, in every file (a member keeps its name where it is
    # seen to be the kept one: kept_starts())
    for e in entries:
        for old, queue in sorted(e.kept_tasks.items()):
            if old in globals_ or old in globals_blocked:
                globals_blocked.setdefault(old, "a task of the private queue %s, kept" % queue)
    for old in fields_blocked:
        fields.pop(old, None)
    for old, new in list(globals_.items()):
        if old in globals_blocked:
            del globals_[old]
            continue
        for e in entries:
            # every name of the file first (cached), then only those that
            # are not members or tags
            if {old, new} <= tqlib.facts(e.old).names and \
                    {old, new} <= tqlib.identifiers(tqlib.tokens(e.old)):
                globals_blocked[old] = "'%s' is already used in %s" % (new, e.shown)
                del globals_[old]
                break
    # the maintainers' names of routines, helpers and flags (habits()):
    # renamed as file-scope names are, and members as members
    h = habits(entries)
    # a routine and a task of one file would take one name (pcmcia's
    # tcic_bh and tcic_task, tcic_work): the task has it, the routine stays
    taken = set(globals_.values())
    for old, new in list(h["functions"].items()):
        if new in taken:
            del h["functions"][old]
            h["blocked"][old] = "'%s' is the new name of a task" % new
    for old, new in h["functions"].items():
        globals_.setdefault(old, new)
    for old, new in h["flag_globals"].items():
        globals_.setdefault(old, new)
    for old, new in h["flag_fields"].items():
        if old not in fields_blocked:
            fields.setdefault(old, new)
    return {"fields": fields, "fields_blocked": fields_blocked,
            "globals": globals_, "globals_blocked": globals_blocked,
            "flags": sorted(h["flag_fields"]), "functions": sorted(h["functions"]),
            "habits_blocked": h["blocked"]}


# ------------------------------------------------------------- the renames

# A name after these is not a use of a variable: a member, a tag, a label.
_NOT_A_USE = frozenset({".", "->", "struct", "union", "enum", "goto"})


def _outside(hidden):
    """offset -> is it outside every construct hidden from coccinelle?"""
    starts = [h.start for h in hidden]

    def test(off):
        i = bisect.bisect_right(starts, off) - 1
        return i < 0 or off >= hidden[i].end
    return test


def kept_starts(toks, kept_tasks, kept_members, typedefs=None):
    """The offsets of the names a task kept on a private queue is known
    by (tqprep.private_tasks): its member's declarator, and its accesses
    by name in this file, or by structure and member where the base's
    structure is seen; they keep their names, as its type stays."""
    out = set()
    if not kept_tasks and not kept_members:
        return out
    for i, _ in tqprep.kept_task_tokens(toks, kept_tasks, kept_members, typedefs):
        if toks[i].val == "tq_struct":
            j = tqprep._after_pointers(toks, i + 1)
            if j < len(toks):
                out.add(toks[j].start)
    tags = tqprep.var_tags(toks, typedefs) if kept_members else {}
    for i in range(2, len(toks)):
        t = toks[i]
        if t.kind != "ident" or toks[i - 1].val not in (".", "->"):
            continue
        if t.val in kept_tasks or any(k in kept_members for k in
                                      tqprep._member_of(toks, 0, i + 1, tags) or ()):
            out.add(t.start)
    return out


def _in_structures(toks):
    """The offsets of the tokens inside a structure's or union's braces:
    a name there is a member's (or a tag's), never a variable's use."""
    out = set()
    n = len(toks)
    for i, t in enumerate(toks):
        if t.val not in ("struct", "union"):
            continue
        j = i + 2 if i + 1 < n and toks[i + 1].kind == "ident" else i + 1
        if j < n and toks[j].val == "{" and not (out and toks[j].start in out):
            k = tqprep._match_close(toks, j, "{", "}")
            for m in range(j + 1, k if k is not None else j + 1):
                out.add(toks[m].start)
    return out


def edits(toks, decl, rmap, hidden, typed=frozenset(), kept=frozenset()):
    """[(start, end, new)]: what tqueue-rename.cocci's rules that rename
    change in the text coccinelle reads (toks, and decl: its
    declared_tokens()), made in Python: a spatch rule
    costs a pass over every function, and these four were a third of
    --rename's time.  Tokens of a construct hidden from coccinelle stay as
    written, as they did.

      * a member `struct tq_struct m;` (or work_t) of a structure, m one
        of the map's fields, and every access x.m, p->m, but for a task
        kept on a private queue (kept, from kept_starts()); a member of
        typed (X.typed: the file may see a member of that name typed
        otherwise) is left to the rules, which know the types coccinelle
        knows, and rename the declarations after the accesses;
      * every use of a file-scope variable of the map's globals, its
        declaration among them; not a member (any name inside a
        structure's braces), tag or label of that name.
    """
    fields, globals_ = rmap.get("fields", {}), rmap.get("globals", {})
    if not fields and not globals_:
        return []
    test = _outside(hidden)

    def outside(off):
        return off not in kept and test(off)
    out = []
    declarators = set()
    for scope, t in decl:
        if scope == "member":
            declarators.add(t.start)
            if t.val in fields and t.val not in typed and outside(t.start):
                out.append((t.start, t.end, fields[t.val]))
    inside = None
    prev = None
    flags = set(rmap.get("flags", ()))
    for k, t in enumerate(toks):
        if t.kind == "ident" and t.val in flags and prev not in (".", "->") and \
                k + 1 < len(toks) and toks[k + 1].val in (";", ",", ":", "[") and \
                outside(t.start):
            # a flag's declarator in its structure
            if inside is None:
                inside = _in_structures(toks)
            if t.start in inside:
                out.append((t.start, t.end, fields[t.val]))
                prev = t.val
                continue
        if t.kind == "ident" and t.start not in declarators and outside(t.start):
            if prev in (".", "->"):
                if t.val in fields and t.val not in typed:
                    out.append((t.start, t.end, fields[t.val]))
            elif t.val in globals_ and prev not in _NOT_A_USE:
                if inside is None:
                    inside = _in_structures(toks)
                if t.start not in inside:
                    out.append((t.start, t.end, globals_[t.val]))
        prev = t.val
    return out


def columns(text, offsets, todo):
    """[(line, column)] of text's offsets once the edits todo are made,
    as coccinelle gives a position (column from 0); an edit keeps to its
    line."""
    out = []
    for off in offsets:
        bol = text.rfind("\n", 0, off) + 1
        shift = sum(len(new) - (end - start) for start, end, new in todo
                    if bol <= start and end <= off)
        out.append((text.count("\n", 0, off) + 1, off - bol + shift))
    return out


def local_clashes(toks, hidden):
    """([(start, end, new)], [(kind, idiom, line, msg)]) for the locals of
    a task's type whose new name a completion of the same function has
    (the seed's kmod.c: DECLARE_COMPLETION(work) beside struct tq_struct
    tqs): the completion becomes `done`, as the seed made it, and the
    task takes its name.  Other clashes are tqueue-rename's to report."""
    edits, said = [], []
    outside = _outside(hidden)
    for head, lb, rb in tqprep._functions(toks):
        fn = tqprep._function_name(toks[head:lb])
        body = toks[head:rb + 1]
        names = {t.val for k, t in enumerate(body) if t.kind == "ident" and
                 (k == 0 or body[k - 1].val not in (".", "->"))}
        for k in range(lb + 1, rb):
            t = toks[k]
            if t.val == "tq_struct" and toks[k - 1].val == "struct" and \
                    toks[k + 1].kind == "ident" and toks[k + 2].val in (";", "=", ","):
                old = toks[k + 1].val
            elif t.val == "DECLARE_WORK" and toks[k + 1].val == "(" and toks[k + 2].kind == "ident":
                old = toks[k + 2].val
            else:
                continue
            new = tqlib.new_name(old)
            if not new or new not in names or "done" in names:
                continue
            holder = any(toks[j].val == "DECLARE_COMPLETION" and toks[j + 2].val == new or
                         toks[j].val == "completion" and toks[j - 1].val == "struct" and
                         toks[j + 1].val == new for j in range(lb + 1, rb - 2))
            if not holder:
                continue
            for j in range(head, rb):
                u = toks[j]
                if u.kind == "ident" and toks[j - 1].val not in (".", "->") and \
                        outside(u.start) and u.val in (old, new):
                    edits.append((u.start, u.end, new if u.val == old else "done"))
            said.append(("conv", "rename_variable", t.line, "variable %s -> %s (in %s), and "
                         "the completion %s there -> done, as the seed named them"
                         % (old, new, fn, new)))
            names |= {new, "done"}
    return edits, said


def habit_notes(toks, rmap, hidden):
    """[(kind, idiom, line, msg)]: what the text coccinelle reads defines
    of the maintainers' names (habits()): a routine or helper renamed
    where it is defined, a flag where its structure or the file declares
    it, and what could not be renamed, where it is defined."""
    outside = _outside(hidden)
    funcs = set(rmap.get("functions", ()))
    flags = set(rmap.get("flags", ()))
    blocked = rmap.get("habits_blocked", {})
    globals_, fields = rmap.get("globals", {}), rmap.get("fields", {})
    out = []
    seen = set()
    for head, lb, rb in tqprep._functions(toks):
        name = tqprep._function_name(toks[head:lb])
        at = next((t for t in toks[head:lb] if t.val == name), None)
        if at is None or not outside(at.start) or name in seen:
            continue
        if name in funcs and name in globals_:
            seen.add(name)
            out.append(("conv", "rename_function", at.line, "function %s -> %s (%s)" % (
                name, globals_[name], "a task's routine" if tqlib.routine_name(name) ==
                globals_[name] else "named after the call it makes")))
        elif name in blocked:
            seen.add(name)
            out.append(("conflict", "rename_conflict", at.line, "keeping function name '%s': %s"
                        % (name, blocked[name])))
    inside = None
    for k, t in enumerate(toks):
        if t.val not in flags or t.val in seen or k + 1 >= len(toks) or \
                toks[k + 1].val not in (";", ",", ":", "[") or not outside(t.start):
            continue
        if inside is None:
            inside = _in_structures(toks)
        if t.start in inside and t.val in fields:
            seen.add(t.val)
            out.append(("conv", "rename_flag", t.line, "member %s -> %s (a flag that guards "
                        "the work)" % (t.val, fields[t.val])))
    return out


def notes(decl, rmap, hidden, kept=frozenset()):
    """[(kind, idiom, line, msg)]: what tqueue-rename's @mem and @var say
    of the members and file-scope variables the text coccinelle reads
    declares (decl: declared_tokens() of the text), decided by the tree's
    map (not of a kept task's, which keeps its type and name)."""
    outside = _outside(hidden)
    out = []
    for scope, t in decl:
        if t.start in kept or not outside(t.start) or not tqlib.new_name(t.val):
            continue
        kind = "fields" if scope == "member" else "globals"
        what = "member" if scope == "member" else "variable"
        if t.val in rmap.get(kind, {}):
            out.append(("conv", "rename_" + what, t.line,
                        "%s %s -> %s" % (what, t.val, rmap[kind][t.val])))
        elif t.val in rmap.get(kind + "_blocked", {}):
            out.append(("conflict", "rename_conflict", t.line, "keeping %s name '%s': %s" % (
                what, t.val, rmap[kind + "_blocked"][t.val])))
    return out
