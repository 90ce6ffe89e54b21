"""What a variable is where a statement stands, from tokens alone: its
declaration (a parameter, a local of an enclosing block, a file-scope
variable), its type, whether the code tests it for NULL.

Used where convert writes a statement that names variables of the
function it lands in (tqbh's drain of delayed work).  tqprep.scan()
tokens; standard library only.
"""

import tqprep

# words of a declaration that are not its type
_STORAGE = frozenset({"static", "extern", "register", "auto", "const", "volatile",
                      "inline", "__inline__", "__inline"})
# names that start a statement, never a type
_NOT_TYPE = frozenset({"return", "if", "while", "for", "switch", "case", "goto", "do", "else",
                       "sizeof", "break", "continue", "default", "typedef"})


class Var:
    """A declared name: its type as written (`struct tty_struct`), its
    pointer depth, the token index of its name, and whether it is a
    parameter, a local or a file-scope variable."""

    __slots__ = ("name", "type", "stars", "at", "kind")

    def __init__(self, name, type_, stars, at, kind):
        self.name, self.type, self.stars, self.at, self.kind = name, type_, stars, at, kind

    @property
    def key(self):
        return (self.type, self.stars)

    def __repr__(self):
        return "%s %s%s (%s)" % (self.type, "*" * self.stars, self.name, self.kind)


def _declaration_at(toks, i, lo, starts):
    """(type words, stars) if toks[i] is the name a declaration declares:
    `T *x`, `struct t x`, `T *a, *x`, the statement starting after one of
    the tokens starts (at or after lo), else None."""
    j = i - 1
    stars = 0
    while j >= lo and toks[j].val in ("*", "const", "volatile"):
        if toks[j].val == "*":
            stars += 1
        j -= 1
    if j < lo:
        return None
    if toks[j].val == ",":
        # a later declarator: the type is the first declarator's
        k = j
        depth = 0
        while k > lo:
            v = toks[k - 1].val
            if v in (")", "]", "}"):
                depth += 1
            elif v in ("(", "[", "{"):
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (v == ";" or toks[k - 1].pp):
                break
            k -= 1
        if k > 0 and toks[k - 1].val not in starts and not toks[k - 1].pp:
            return None
        words = []
        m = k
        while m < j and toks[m].kind == "ident":
            words.append(toks[m].val)
            m += 1
        if m <= j and toks[m].val != "*":
            words = words[:-1]
        words = [w for w in words if w not in _STORAGE]
        if not words or words[0] in _NOT_TYPE:
            return None
        return " ".join(words), stars
    words = []
    while j >= lo and toks[j].kind == "ident" and toks[j].val not in _NOT_TYPE and \
            not toks[j].pp:
        words.insert(0, toks[j].val)
        j -= 1
    if not words or (j >= 0 and toks[j].val not in starts and not toks[j].pp):
        return None
    words = [w for w in words if w not in _STORAGE]
    if not words:
        return None
    follow = toks[i + 1].val if i + 1 < len(toks) else ";"
    if follow not in (",", ";", "=", ")", "["):
        return None
    return " ".join(words), stars


def _functions(toks):
    """[(name, head, lbrace, rbrace)] of the file's function definitions."""
    return [(tqprep._function_name(toks[h:lb]), h, lb, rb) for h, lb, rb in tqprep._functions(toks)]


def function_at(funcs, i):
    for f in funcs:
        if f[2] < i < f[3]:
            return f
    return None


def _blocks(toks, lb, rb):
    """{index of `{`: index of its `}`} inside a function body."""
    out = {}
    stack = []
    for k in range(lb, rb + 1):
        if toks[k].pp:
            continue
        if toks[k].val == "{":
            stack.append(k)
        elif toks[k].val == "}" and stack:
            out[stack.pop()] = k
    return out


def in_scope(toks, funcs, i):
    """[Var] visible at token i: the enclosing function's parameters, the
    locals declared before i in the blocks around it, and the file's
    variables declared at file scope before the function."""
    f = function_at(funcs, i)
    out = []
    seen = set()

    def add(v):
        if v.name not in seen:
            seen.add(v.name)
            out.append(v)
    if f is not None:
        _, head, lb, rb = f
        blocks = _blocks(toks, lb, rb)
        # locals, innermost first: a block that encloses i, declarations before i
        for k in range(i - 1, lb, -1):
            t = toks[k]
            if t.kind != "ident" or t.pp:
                continue
            d = _declaration_at(toks, k, lb + 1, (";", "{", "}"))
            if d is None:
                continue
            open_ = max((b for b, e in blocks.items() if b < k < e), default=lb)
            if blocks.get(open_, rb) < i:
                continue
            add(Var(t.val, d[0], d[1], k, "local"))
        # parameters
        par = next((k for k in range(head, lb) if toks[k].val == "("), None)
        if par is not None:
            close = tqprep._match_close(toks, par)
            for k in range(par + 1, close or par):
                if toks[k].kind == "ident":
                    d = _declaration_at(toks, k, par + 1, ("(", ","))
                    if d is not None and toks[k + 1].val in (",", ")", "["):
                        add(Var(toks[k].val, d[0], d[1], k, "param"))
    for v in file_scope(toks, funcs):
        if v.at < i:
            add(v)
    return out


_FILE_SCOPE = {}


def file_scope(toks, funcs):
    """[Var] declared at file scope (outside functions and structures)."""
    key = id(toks)
    hit = _FILE_SCOPE.get(key)
    if hit is not None and hit[0] is toks:
        return hit[1]
    inside = set()
    for _, head, lb, rb in funcs:
        inside.update(range(head, rb + 1))
    out = []
    depth = 0
    for k, t in enumerate(toks):
        if t.pp:
            continue
        if t.val in ("{", "("):
            depth += 1
        elif t.val in ("}", ")"):
            depth -= 1
        elif depth == 0 and t.kind == "ident" and k not in inside and k > 0:
            d = _declaration_at(toks, k, 0, (";", "}"))
            if d is not None:
                out.append(Var(t.val, d[0], d[1], k, "global"))
    _FILE_SCOPE.clear()
    _FILE_SCOPE[key] = (toks, out)
    return out


def declaration_of(toks, funcs, name, i):
    """The Var that name, used at token i, refers to, or None."""
    for v in in_scope(toks, funcs, i):
        if v.name == name:
            return v
    return None


# a name is an operand of its own where these stand on both sides of it
_OPEN = frozenset({"(", "!", "&&", "||", "?", ":", "=", ",", "return"})
_CLOSE = frozenset({")", "&&", "||", "?", ":", ";", ","})
_LOGICAL = frozenset({"!", "&&", "||", "?"})


def tested_for_null(toks, lo, hi, name):
    """Does toks[lo:hi] test name itself for NULL: `if (x)`, `!x`,
    `x && ...`, `x == NULL`, `x != 0`, `x ? ...`?"""
    n = len(toks)
    for k in range(lo, hi):
        t = toks[k]
        if t.val != name or t.kind != "ident":
            continue
        prev = toks[k - 1].val if k else ""
        nxt = toks[k + 1].val if k + 1 < n else ""
        if prev in ("==", "!=") and k >= 2 and toks[k - 2].val in ("NULL", "0") and \
                (k < 3 or toks[k - 3].val in _OPEN):
            return True
        if nxt in ("==", "!=") and k + 2 < n and toks[k + 2].val in ("NULL", "0") and \
                prev in _OPEN:
            return True
        if prev in _OPEN and nxt in _CLOSE and (prev in _LOGICAL or nxt in _LOGICAL or (
                prev == "(" and nxt == ")" and k >= 2 and toks[k - 2].val in ("if", "while"))):
            return True
    return False
