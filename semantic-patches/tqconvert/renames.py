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

import re

import tqlib
import tqprep

from .prepare import full_text

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
    """[(name, line)] of the plain names declared by the declaration whose
    type ends before ev[k]: `a, b;`, `x = {...};` (typed == "init"), not
    `*p` nor `a[2]`."""
    out = []
    n = len(ev)
    while k < n and ev[k][0] == "tok":
        t = ev[k][1]
        nxt = ev[k + 1][1].val if k + 1 < n and ev[k + 1][0] == "tok" else None
        if t.kind == "ident" and (nxt in (",", ";") or nxt == "=" and typed == "init"):
            out.append((t.val, t.line))
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
        return [(ev[k + 2][1].val, ev[k + 2][1].line)]
    return []


def declared(text):
    """[(kind, name, line)] of the members ("member") and file-scope
    variables ("global") of a task's or a work's type that text declares,
    as tqueue-rename.cocci's @mem and @var rules collect them."""
    ev = events(tqprep.scan(text))
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
            for name, line in _declaration(ev, k, scope):
                (pending if stack else out).append((scope, name, line))
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


_DECLARES_TASK = re.compile(r"\bstruct tq_struct \w+ [;=\[,]|\bwork_t \w+|\bDECLARE_WORK\b")


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
    return {"fields": fields, "fields_blocked": fields_blocked,
            "globals": globals_, "globals_blocked": globals_blocked}
