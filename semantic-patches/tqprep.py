"""What convert does to C text around coccinelle, in plain Python.

  * scan(): C tokens with their offsets and lines, preprocessor lines
    marked, comments and literals skipped;
  * legacy_lines() and is_candidate(): where the task-queue API is used;
  * regions() and describe(): the top-level elements of a file (functions,
    declarations, #define ...), to name the one coccinelle cannot parse;
  * hide() and restore(): the parse-only rewrites.  Some GNU C of the 2.4
    era stops coccinelle's parser: a cast used as an lvalue
    (`(char *)p += n;`), `__attribute__((...))` with arguments after a
    declarator, a function-like macro used as a function's name
    (`DRM(irq_install)(...)`), a declarator followed by a marker macro
    (`void f(void) md__init;`).  hide() rewrites them in the copy that
    coccinelle parses, without moving any line; restore() puts the
    author's text back in coccinelle's output, and says where it could not.

Standard library only; used by convert, not by the .cocci files.
"""

import difflib
import re
import threading

import tqlib

# ------------------------------------------------------------- scanning

# One match per token: what comes before it that is not a token (blanks,
# newlines, comments, backslash-newlines, the other whitespace characters
# that start nothing: "junk"), then the token, or the end of the text.  A
# real newline in the junk (not one inside a comment or after a
# backslash) starts a line where a `#` opens a preprocessor line.
_SCAN = re.compile(r"""
    (?P<junk>(?:[ \t\f\v\r]+|(?P<nl>\n)|/\*.*?(?:\*/|\Z)|//(?:\\\n|[^\n])*|\\\r?\n
               |[^\S \t\f\v\r\n])*)
    (?:
      (?P<string>"(?:\\.|\\\n|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)
    | (?P<number>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*)
    | (?P<ident>[A-Za-z_$][A-Za-z0-9_$]*)
    | (?P<punct><<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#
                |[^\sA-Za-z0-9_$])
    | \Z
    )
""", re.S | re.X)


try:
    from _collections import _tuplegetter

    def _field(i, doc):
        return _tuplegetter(i, doc)
except ImportError:         # not CPython
    from operator import itemgetter

    def _field(i, doc):
        return property(itemgetter(i), doc=doc)


class Tok(tuple):
    """A token: kind, val, start and end offsets, line, pp.  A tuple made
    in C (scan() makes millions of them), read by name."""

    __slots__ = ()
    kind = _field(0, "ident, number, string or punct")
    val = _field(1, "the token's text")
    start = _field(2, "offset of its first character")
    end = _field(3, "offset past its last character")
    line = _field(4, "its line, from 1")
    pp = _field(5, "on a preprocessor line")

    def __new__(cls, kind, val, start, end, line, pp):
        return tuple.__new__(cls, (kind, val, start, end, line, pp))

    def __repr__(self):
        return "%s@%d" % (self.val, self.line)


_new_tok = tuple.__new__

_scans = {}                 # text -> [Tok], the last few texts scanned
_scans_lock = threading.Lock()
_SCANS_KEPT = 8


_pinned = {}                # text -> [Tok], the texts a caller holds (pin())


def pin(text, toks, old=None):
    """Keep toks as scan(text) for as long as the caller holds text (a
    file's current text, scanned by each analysis in turn over the whole
    tree: the last few alone would be scanned again in every pass);
    old, the text it held before, is let go."""
    with _scans_lock:
        if old is not None and old is not text:
            _pinned.pop(old, None)
        _pinned[text] = toks


def scan(text):
    """[Tok] for identifiers, numbers and punctuation (strings and
    character literals as kind "string"); comments dropped.  pp is True
    for the tokens of a preprocessor line (continuations included).  The
    same list for the same text while it is pinned or one of the last
    few scanned: callers do not change it."""
    with _scans_lock:
        hit = _pinned.get(text)
        if hit is None:
            hit = _scans.get(text)
    if hit is not None:
        return hit
    out = _scan(text)
    with _scans_lock:
        _scans[text] = out
        while len(_scans) > _SCANS_KEPT:
            del _scans[next(iter(_scans))]
    return out


def _scan(text):
    out = []
    append = out.append
    count = text.count
    line, prev = 1, 0
    first, in_pp = True, False
    for m in _SCAN.finditer(text):
        kind = m.lastgroup
        if kind == "junk" or kind == "nl":
            break               # the end of the text
        start = m.start(kind)
        line += count("\n", prev, start)
        prev = start
        val = m.group(kind)
        if first or m.start("nl") >= 0:
            # the first token of a line: `#` starts a preprocessor line
            in_pp = val == "#"
            first = False
        append(_new_tok(Tok, (kind, val, start, m.end(), line, in_pp)))
    return out


def _line_starts(text):
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    return starts


# ------------------------------------------------------------ candidates

_NAMES = sorted(tqlib.LEGACY, key=len, reverse=True)
_PREFILTER = re.compile(r"\b(?:%s)\b|tqueue\.h" % "|".join(_NAMES))
_PREFILTER_B = re.compile((r"\b(?:%s)\b|tqueue\.h" % "|".join(_NAMES)).encode())


# Every name of _PREFILTER holds one of these: a file with none of them
# (most of a kernel tree) is answered by a few substring searches, much
# faster than the regular expression's alternation at every position.
_PREFILTER_WORDS = (b"tq", b"TQ", b"_task", b"task_queue", b"TASK_QUEUE", b"IMMEDIATE_BH",
                    b"start_context_thread")
assert all(any(w.decode() in n for w in _PREFILTER_WORDS) for n in _NAMES + ["tqueue.h"])


def mentions_api(data):
    """Cheap test on raw bytes: could this file use the task-queue API?"""
    if not any(w in data for w in _PREFILTER_WORDS):
        return False
    return _PREFILTER_B.search(data) is not None


def legacy_lines(text):
    """{line: [token, ...]} of the task-queue API in code (comments and
    strings do not count), #include <linux/tqueue.h> included."""
    out = {}
    if not _PREFILTER.search(text):
        return out
    for line, tok, _ in tqlib.legacy_residue(text):
        out.setdefault(line, []).append(tok)
    return out


# --------------------------------------------------------- merge markers

_MARKER = re.compile(r"^(<{7}|={7}|>{7}|\|{7})(?:[ \t].*)?$", re.M)


def merge_markers(text):
    """[(line, marker)] of version-control conflict markers."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _MARKER.finditer(text)]


# ------------------------------------------------------ top-level regions

class Region:
    """One top-level element: lines first..last, kind "function",
    "declaration", "directive" (a preprocessor line) or "other"."""

    __slots__ = ("first", "last", "kind", "name")

    def __init__(self, first, last, kind, name):
        self.first, self.last, self.kind, self.name = first, last, kind, name

    def describe(self):
        if self.kind == "function":
            return "function %s()" % self.name if self.name else \
                "the function at line %d" % self.first
        if self.kind == "directive":
            return "the %s at line %d" % (self.name or "preprocessor line", self.first)
        if self.kind == "declaration" and self.name:
            return "the declaration of %s" % self.name
        return "the code of lines %d-%d" % (self.first, self.last)


_KEYWORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "__inline__",
    "__inline", "__volatile__", "asm", "__asm__", "typeof", "__typeof__", "_Bool",
}


def _function_name(toks):
    """Name of a function whose header is toks (up to its body's `{`)."""
    depth = 0
    groups = []         # (open index, close index) of top-level (...)
    start = None
    for i, t in enumerate(toks):
        if t.val == "(":
            if depth == 0:
                start = i
            depth += 1
        elif t.val == ")":
            depth -= 1
            if depth == 0 and start is not None:
                groups.append((start, i))
    for lo, hi in groups:
        if lo == 0:
            continue
        prev = toks[lo - 1]
        if prev.kind == "ident" and prev.val not in _KEYWORDS and \
                not prev.val.startswith("__attribute"):
            # a macro that builds the name: DRM(irq_install)(...)
            if lo >= 2 and prev is toks[lo - 1] and hi + 1 < len(toks) and \
                    toks[hi + 1].val == "(":
                return "".join(t.val for t in toks[lo - 1:hi + 1])
            return prev.val
    return None


def regions(text, toks=None):
    """[Region] of text, in order."""
    toks = scan(text) if toks is None else toks
    out = []
    cur = []
    depth = 0
    pdepth = 0
    pp_first = pp_last = None
    pp_name = None

    def flush_pp():
        if pp_first is not None:
            out.append(Region(pp_first, pp_last, "directive", pp_name))

    def close(kind=None):
        if not cur:
            return
        first, last = cur[0].line, cur[-1].line
        if kind is None:
            kind = "declaration"
        name = None
        if kind == "function":
            body = next((i for i, t in enumerate(cur) if t.val == "{"), len(cur))
            name = _function_name(cur[:body])
        else:
            # the last name at nesting depth 0 before `=` or `;`
            d = 0
            for t in cur:
                if t.val in ("(", "[", "{"):
                    d += 1
                elif t.val in (")", "]", "}"):
                    d -= 1
                elif d == 0 and t.val in ("=", ";"):
                    break
                elif d == 0 and t.kind == "ident" and t.val not in _KEYWORDS and \
                        not (t.val.startswith("__") and name):
                    # not a marker after the name: `x[] __initdata = ...`
                    name = t.val
        out.append(Region(first, last, kind, name))
        del cur[:]

    for i, t in enumerate(toks):
        if t.pp:
            if pp_first is not None and (t.line > pp_last + 1 or t.val == "#" and
                                         i > 0 and toks[i - 1].line != t.line):
                flush_pp()
                pp_first = None
            if pp_first is None:
                pp_first, pp_name = t.line, None
            pp_last = t.line
            if pp_name is None and t.kind == "ident":
                pp_name = "#" + t.val
            elif pp_name in ("#define", "#undef") and t.kind == "ident":
                pp_name = "%s %s" % (pp_name, t.val)
            continue
        if pp_first is not None:
            flush_pp()
            pp_first = None
        cur.append(t)
        v = t.val
        if v in ("(", "["):
            pdepth += 1
        elif v in (")", "]"):
            pdepth = max(0, pdepth - 1)
        elif v == "{":
            depth += 1
        elif v == "}":
            depth = max(0, depth - 1)
            if depth == 0:
                # a function body ends here; an initialiser or a struct
                # goes on to its `;`
                j = next((k for k, x in enumerate(cur) if x.val == "{"), None)
                if _function_head(cur[:j] if j is not None else []):
                    close("function")
        elif v == ";" and depth == 0 and pdepth == 0:
            close()
    flush_pp()
    close("other")
    out.sort(key=lambda r: r.first)
    return out


def region_at(regs, line):
    """The region holding line: the innermost (a directive inside a
    function counts as the function's)."""
    best = None
    for r in regs:
        if r.first <= line <= r.last:
            if best is None or (best.kind == "directive" and r.kind != "directive"):
                best = r
    return best


# ------------------------------------------------------ parse-only rewrites

class Hidden:
    """One parse-only rewrite: text[start:end] was orig, is repl."""

    __slots__ = ("kind", "line", "start", "end", "orig", "repl", "what")

    def __init__(self, kind, line, start, end, orig, repl, what):
        self.kind, self.line, self.start, self.end = kind, line, start, end
        self.orig, self.repl, self.what = orig, repl, what


_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}
_INCDEC = {"++", "--"}
_TYPE_WORDS = {"char", "short", "int", "long", "unsigned", "signed", "void", "float",
               "double", "const", "volatile", "struct", "union", "enum", "_Bool"}


def _blank(s):
    return re.sub(r"[^\n]", " ", s)


def _match_close(toks, i, o="(", c=")"):
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].val == o:
            depth += 1
        elif toks[j].val == c:
            depth -= 1
            if depth == 0:
                return j
    return None


def _match_open(toks, k):
    """Index of the `(` that the `)` at k closes, or None."""
    depth = 0
    for j in range(k, -1, -1):
        if toks[j].val == ")":
            depth += 1
        elif toks[j].val == "(":
            depth -= 1
            if depth == 0:
                return j
    return None


def _cast_type(toks, lo, hi):
    """Do toks[lo:hi] (inside the parentheses) spell a type?"""
    if hi <= lo:
        return False
    words = [t for t in toks[lo:hi] if t.val != "*"]
    if any(t.kind != "ident" for t in words):
        return False
    if not words:
        return False
    if any(t.val in _TYPE_WORDS for t in words):
        return True
    # a typedef name, maybe followed by stars: (u_int *), (foo_t)
    return len(words) == 1


def _lvalue_end(toks, j):
    """Index after an lvalue starting at toks[j] (`*`* name, then ->x, .x,
    [..]; or a parenthesised one), or None."""
    n = len(toks)
    while j < n and toks[j].val == "*":
        j += 1
    if j >= n:
        return None
    if toks[j].kind == "ident" and toks[j].val not in _KEYWORDS:
        j += 1
    elif toks[j].val == "(":
        k = _match_close(toks, j)
        if k is None:
            return None
        j = k + 1
    else:
        return None
    while j < n:
        if toks[j].val in ("->", ".") and j + 1 < n and toks[j + 1].kind == "ident":
            j += 2
        elif toks[j].val == "[":
            k = _match_close(toks, j, "[", "]")
            if k is None:
                return None
            j = k + 1
        else:
            break
    return j


def _lvalue_casts(toks):
    """(open, close) token indices of casts used as lvalues."""
    out = []
    n = len(toks)
    for i, t in enumerate(toks):
        if t.val != "(" or t.pp:
            continue
        prev = toks[i - 1] if i else None
        prefix_incdec = prev is not None and prev.val in _INCDEC
        if prev is not None and not prefix_incdec:
            if prev.kind in ("ident", "number", "string") and prev.val != "return":
                continue
            if prev.val in (")", "]"):
                continue
        k = _match_close(toks, i)
        if k is None or k + 1 >= n or not _cast_type(toks, i + 1, k):
            continue
        e = _lvalue_end(toks, k + 1)
        if e is None or e >= n:
            continue
        if prefix_incdec:
            out.append((i, k))
            continue
        # ((T)x)++ : as many `)` as `(` stood right before the cast;
        # *(T *)p = v and *((T *)p) = v assign through the cast, legally
        opened = 0
        b = i - 1
        while b >= 0 and toks[b].val == "(":
            opened += 1
            b -= 1
        if b >= 0 and toks[b].val in ("*", "&"):
            continue
        closed = 0
        while e < n and toks[e].val == ")" and closed < opened:
            e += 1
            closed += 1
        if e < n and (toks[e].val in _ASSIGN or toks[e].val in _INCDEC):
            out.append((i, k))
    return out


def _attributes(toks):
    """(first, last) token indices of __attribute__((...)) with arguments."""
    out = []
    for i, t in enumerate(toks):
        if t.pp or t.val not in ("__attribute__", "__attribute"):
            continue
        if i + 1 >= len(toks) or toks[i + 1].val != "(":
            continue
        k = _match_close(toks, i + 1)
        if k is None:
            continue
        if sum(1 for x in toks[i + 1:k + 1] if x.val == "(") > 2:
            out.append((i, k))
    return out


_depth_lists = {}           # id(toks) -> (toks, _depths(toks)), the last few
_DEPTHS_KEPT = 8


def _depths(toks):
    """[(index, token, brace depth, parenthesis depth)] of each token
    outside preprocessor lines, the depths counted after the token.  Made
    once for the last few token lists asked about (hide() and the
    analyses before it go through the same tokens several times)."""
    with _scans_lock:
        hit = _depth_lists.get(id(toks))
    if hit is not None and hit[0] is toks:
        return hit[1]
    out = []
    append = out.append
    depth = pdepth = 0
    for i, t in enumerate(toks):
        if t.pp:
            continue
        v = t.val
        if v == "{":
            depth += 1
        elif v == "}":
            depth = max(0, depth - 1)
        elif v == "(":
            pdepth += 1
        elif v == ")":
            pdepth = max(0, pdepth - 1)
        append((i, t, depth, pdepth))
    with _scans_lock:
        # the list is kept with its tokens: their id is not reused meanwhile
        _depth_lists[id(toks)] = (toks, out)
        while len(_depth_lists) > _DEPTHS_KEPT:
            del _depth_lists[next(iter(_depth_lists))]
    return out


def _name_macros(toks):
    """Function-like macros used as a function's name at file scope:
    `static int DRM(irq_install)(drm_device_t *dev)`.  {macro name}."""
    names = set()
    n = len(toks)
    for i, t, depth, _ in _depths(toks):
        if depth or t.kind != "ident" or t.val in _KEYWORDS or i + 4 >= n:
            continue
        if toks[i + 1].val == "(" and toks[i + 2].kind == "ident" and \
                toks[i + 3].val == ")" and toks[i + 4].val == "(" and \
                not any(x.pp for x in toks[i + 1:i + 5]):
            prev = toks[i - 1] if i else None
            if prev is not None and (prev.kind == "ident" or prev.val == "*"):
                names.add(t.val)
    return names


def _marker_macros(toks, known=()):
    """`void f(void) md__init;`: an identifier between a declarator's `)`
    and its `;` at file scope is a marker macro.  [token index]."""
    out = []
    for i, t, depth, pdepth in _depths(toks):
        if depth or pdepth or t.kind != "ident" or t.val in _KEYWORDS:
            continue
        if 0 < i < len(toks) - 1 and toks[i - 1].val == ")" and toks[i + 1].val == ";" \
                and not toks[i - 1].pp and not toks[i + 1].pp and \
                not t.val.startswith("__attribute") and t.val not in known:
            # a declarator's parameter list, not a cast: `= (T *) NULL;`
            o = _match_open(toks, i - 1)
            if o is not None and o > 0 and toks[o - 1].kind == "ident" and \
                    toks[o - 1].val not in _KEYWORDS:
                out.append(i)
    return out


# ------------------------------------------------ bodies of no concern

def _function_head(head):
    """Do these tokens, up to a `{` at file scope, head a function body
    (not an initialiser, not a struct, union or enum definition)?"""
    return bool(head) and any(x.val == "(" for x in head) and \
        not any(x.val == "=" for x in head) and \
        not (len(head) >= 2 and head[-2].val in ("struct", "union", "enum"))


def _functions(toks):
    """(head, lbrace, rbrace) token indices of each function definition at
    file scope, found as regions() finds them."""
    out = []
    start = None
    lb = None
    for i, t, depth, pdepth in _depths(toks):
        if start is None:
            start = i
        if t.val == "{" and depth == 1:
            lb = i
        elif t.val == "}" and depth == 0 and lb is not None:
            if _function_head(toks[start:lb]):
                out.append((start, lb, i))
                start = None
            lb = None
        elif t.val == ";" and depth == 0 and pdepth == 0:
            start = None
    return out


def _balanced_conditionals(toks, lo, hi):
    """True if every #if group between toks[lo] and toks[hi] opens and
    closes as many braces in each branch: then the braces counted are the
    function's own, whichever branch is compiled."""
    frames = [0]
    for k in range(lo + 1, hi):
        t = toks[k]
        if t.pp:
            if t.val == "#" and k + 1 < hi and toks[k + 1].pp and \
                    (k == 0 or toks[k - 1].line != t.line or not toks[k - 1].pp):
                d = toks[k + 1].val
                if d in ("if", "ifdef", "ifndef"):
                    frames.append(0)
                elif d in ("else", "elif", "endif"):
                    if len(frames) == 1 or frames[-1]:
                        return False
                    if d == "endif":
                        frames.pop()
            continue
        if t.val == "{":
            frames[-1] += 1
        elif t.val == "}":
            frames[-1] -= 1
    return len(frames) == 1


def unrelated_bodies(toks, names):
    """(lbrace, rbrace) of the bodies of functions no rule can concern: no
    name of names in the function, and the function not handed to the
    queue (named, not called, in code that has such a name).  Coccinelle
    matches every rule against every function it is given: a 2.4 driver
    uses the task queue in a few of its functions."""
    funcs = _functions(toks)
    inside = set()
    relevant = []
    for head, lb, rb in funcs:
        inside.update(range(head, rb + 1))
        ids = {t.val for t in toks[head:rb + 1] if t.kind == "ident"}
        relevant.append(bool(ids & names))
    values = set()

    def value_names(lo, hi):
        for k in range(lo, hi):
            t = toks[k]
            if t.kind == "ident" and (k + 1 >= len(toks) or toks[k + 1].val != "("):
                values.add(t.val)
    for (head, lb, rb), rel in zip(funcs, relevant):
        if rel:
            value_names(head, rb + 1)
    # file-scope declarations with such a name: { routine: f }
    lo = None
    for i, t, depth, pdepth in _depths(toks):
        if i in inside:
            continue
        if lo is None:
            lo = i
        if t.val == ";" and depth == 0 and pdepth == 0:
            if any(toks[k].kind == "ident" and toks[k].val in names for k in range(lo, i)):
                value_names(lo, i)
            lo = None
    out = []
    for (head, lb, rb), rel in zip(funcs, relevant):
        if rel or _function_name(toks[head:lb]) in values or rb - lb < 2:
            continue
        if _balanced_conditionals(toks, lb, rb):
            out.append((lb, rb))
    return out


# ------------------------------------------------ tasks of private queues

# the kernel's own queues: anything else queue_task() is given is private
SYSTEM_QUEUES = {"tq_immediate", "tq_timer", "tq_disk", "tq_scheduler"}


def _args(toks, i):
    """[(lo, hi)] token ranges of the arguments of the call whose `(` is
    toks[i]."""
    k = _match_close(toks, i)
    if k is None:
        return []
    out, lo, depth = [], i + 1, 0
    for j in range(i + 1, k):
        v = toks[j].val
        if v in ("(", "[", "{"):
            depth += 1
        elif v in (")", "]", "}"):
            depth -= 1
        elif v == "," and depth == 0:
            out.append((lo, j))
            lo = j + 1
    out.append((lo, k))
    return out


def _last_name(toks, lo, hi):
    """The name an argument ends with: tq of &cd->tq, t of t."""
    if hi > lo and toks[hi - 1].kind == "ident":
        return toks[hi - 1].val
    return None


def typedef_tags(toks):
    """{typedef name: struct tag} from `typedef struct tag name;` and
    `typedef struct tag { ... } name;`."""
    out = {}
    n = len(toks)
    for i, t in enumerate(toks):
        if t.val != "typedef" or i + 3 >= n or toks[i + 1].val != "struct" or \
                toks[i + 2].kind != "ident":
            continue
        j = i + 3
        if toks[j].val == "{":
            j = _match_close(toks, j, "{", "}")
            if j is None:
                continue
            j += 1
        if j + 1 < n and toks[j].kind == "ident" and toks[j + 1].val == ";":
            out[toks[j].val] = toks[i + 2].val
    return out


def _after_pointers(toks, j):
    """The index past the `*`, const and volatile from toks[j] on: where a
    declarator's name stands."""
    while j < len(toks) and toks[j].val in ("*", "const", "volatile"):
        j += 1
    return j


def var_tags(toks, typedefs=None):
    """{variable: {struct tag}} from `struct tag *x` and `struct tag x`
    anywhere in the file (parameters, locals, globals), and `name *x` for
    a name typedefs maps to a tag."""
    out = {}
    n = len(toks)
    typedefs = typedefs or {}
    for i, t in enumerate(toks):
        if t.val == "struct" and i + 2 < n and toks[i + 1].kind == "ident":
            tag, j = toks[i + 1].val, i + 2
        elif t.val in typedefs and (not i or toks[i - 1].val != "struct"):
            tag, j = typedefs[t.val], i + 1
        else:
            continue
        j = _after_pointers(toks, j)
        if j + 1 < n and toks[j].kind == "ident" and toks[j + 1].val in (",", ";", ")", "=", "["):
            out.setdefault(toks[j].val, set()).add(tag)
    return out


def _member_of(toks, lo, hi, tags):
    """(struct tag, member) of an argument `&base->member` or `base.member`
    whose base is a variable of a known structure type, else None."""
    if hi - lo < 3 or toks[hi - 1].kind != "ident" or toks[hi - 2].val not in (".", "->"):
        return None
    base = toks[hi - 3]
    if base.kind != "ident" or (hi - 4 >= lo and toks[hi - 4].val in (".", "->")):
        return None
    return [(tag, toks[hi - 1].val) for tag in sorted(tags.get(base.val, ()))] or None


def queue_task_calls(toks):
    """[(token index, (first, end) of the task argument, task, queue)] of
    the queue_task(&task, &queue) calls in function bodies: the last names
    of the two arguments."""
    out = []
    for i, t, depth, _ in _depths(toks):
        if t.val != "queue_task" or not depth or i + 1 >= len(toks) or toks[i + 1].val != "(":
            continue
        args = _args(toks, i + 1)
        if len(args) == 2:
            out.append((i, args[0], _last_name(toks, *args[0]), _last_name(toks, *args[1])))
    return out


def private_tasks(toks, typedefs=None):
    """The tasks queue_task(&x, &q) puts on a queue q that is not one of
    the kernel's own: a private queue, run where run_task_queue(&q) is
    called, which convert keeps; so its tasks stay struct tq_struct.
    ({name: queue}, {(struct tag, member): queue}): a member of a structure
    whose variable's type the file declares is known by both, to be kept
    in the header that declares the structure; any other task by its name,
    in this file only."""
    names, members = {}, {}
    tags = None
    for _, arg, task, queue in queue_task_calls(toks):
        if not queue or not task or queue in SYSTEM_QUEUES:
            continue
        if tags is None:
            tags = var_tags(toks, typedefs)
        names.setdefault(task, queue)
        for key in _member_of(toks, arg[0], arg[1], tags) or ():
            members.setdefault(key, queue)
    return names, members


def _struct_tag_at(toks, opens, i):
    """The tag of the innermost `struct tag {` around toks[i], or None."""
    for lb, rb, tag in reversed(opens):
        if lb < i < rb:
            return tag
    return None


def _struct_bodies(toks):
    out = []
    n = len(toks)
    for i, t in enumerate(toks):
        if t.val == "struct" and i + 2 < n and toks[i + 1].kind == "ident" and \
                toks[i + 2].val == "{":
            k = _match_close(toks, i + 2, "{", "}")
            if k is not None:
                out.append((i + 2, k, toks[i + 1].val))
    return out


# what coccinelle would take for a task to convert, and the same-length
# names that hide it: the type of the task's declaration, its set-up and
# scheduling, and the members the init and sync rules rewrite
_KEEP_NAMES = {"tq_struct": "tq_kept__", "INIT_TQUEUE": "INIT_TQKEPT",
               "PREPARE_TQUEUE": "PREPARE_TQKEPT", "schedule_task": "schedule_kept",
               "routine": "routkpt", "sync": "s_kp"}


def kept_task_tokens(toks, names, members, typedefs=None):
    """[(index, task)]: the tokens that make a kept task convertible:
    `struct tq_struct x` declaring it, INIT_TQUEUE/PREPARE_TQUEUE/
    schedule_task(&...x, ...), and x.routine, x.sync (x->...).  names:
    tasks known by name in this file; members: {(struct tag, member)}
    known by their structure (private_tasks()); typedefs: {name: tag}
    of the structures the file sees under another name."""
    if not names and not members:
        return []
    out = []
    n = len(toks)
    tags = var_tags(toks, typedefs) if members else {}
    bodies = _struct_bodies(toks) if members else []

    def kept_arg(lo, hi):
        name = _last_name(toks, lo, hi)
        if name in names:
            return name
        if any(k in members for k in _member_of(toks, lo, hi, tags) or ()):
            return name
        return None
    for i, t, depth, _ in _depths(toks):
        v = t.val
        if v == "tq_struct" and i and toks[i - 1].val == "struct":
            j = _after_pointers(toks, i + 1)
            if j < n and toks[j].kind == "ident" and \
                    (toks[j].val in names or
                     (_struct_tag_at(toks, bodies, i), toks[j].val) in members):
                out.append((i, toks[j].val))
        elif v in ("INIT_TQUEUE", "PREPARE_TQUEUE", "schedule_task") and depth and \
                i + 1 < n and toks[i + 1].val == "(":
            args = _args(toks, i + 1)
            task = kept_arg(*args[0]) if args else None
            if task:
                out.append((i, task))
        elif v in ("routine", "sync") and i >= 2 and toks[i - 1].val in (".", "->"):
            task = kept_arg(0, i - 1)
            if task:
                out.append((i, task))
    return out


_BODY_MARK = "tqconvert:body:"


def hide(text, toks=None, known=(), keep=None, kept_tasks=(), kept_members=(),
         typedefs=None, dead=()):
    """(parse_text, [Hidden]): text with the constructs coccinelle cannot
    parse rewritten, every line where it was.  known: marker macros the
    macro files define, which coccinelle parses by itself.  keep: given a
    set of names, the bodies of functions with none of them (and not
    handed to the queue) are blanked too, see unrelated_bodies().
    kept_tasks, kept_members: tasks queued on private queues (by name, and
    by structure and member, see kept_task_tokens()), whose type, set-up
    and members are hidden so that they stay struct tq_struct.  dead: line
    numbers only an older kernel compiles (tqconvert.compat), blanked so
    that nothing converts them: the maintainers left them as they were."""
    toks = scan(text) if toks is None else toks
    starts = _line_starts(text)
    edits = []
    for first, last in _runs(dead, len(starts)):
        s = starts[first - 1]
        e = starts[last] - 1 if last < len(starts) else len(text)
        if e > s:
            edits.append(Hidden("old-kernel", first, s, e, text[s:e], _blank(text[s:e]),
                                "code only a kernel before the workqueue compiles"))

    def line_of(off):
        lo, hi = 0, len(starts)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if starts[mid] <= off:
                lo = mid
            else:
                hi = mid
        return lo + 1

    for i, k in _lvalue_casts(toks):
        s, e = toks[i].start, toks[k].end
        edits.append(Hidden("lvalue-cast", line_of(s), s, e, text[s:e], _blank(text[s:e]),
                            "GNU cast used as an lvalue"))
    for i, k in _attributes(toks):
        s, e = toks[i].start, toks[k].end
        edits.append(Hidden("attribute", line_of(s), s, e, text[s:e], _blank(text[s:e]),
                            "__attribute__ with arguments"))
    for i in _marker_macros(toks, known):
        s, e = toks[i].start, toks[i].end
        edits.append(Hidden("marker", line_of(s), s, e, text[s:e], _blank(text[s:e]),
                            "marker macro after a declarator"))
    for i, _ in kept_task_tokens(toks, kept_tasks, kept_members, typedefs):
        s, e = toks[i].start, toks[i].end
        edits.append(Hidden("kept-task", line_of(s), s, e, text[s:e], _KEEP_NAMES[text[s:e]],
                            "task of a private task queue"))
    if keep is not None and _BODY_MARK not in text:
        for n, (lb, rb) in enumerate(unrelated_bodies(toks, keep)):
            # a body keeps its lines but not its length: restore() finds it
            # again by its marker, not by its place
            s, e = toks[lb].end, toks[rb].start
            repl = "/*%s%d*/" % (_BODY_MARK, n) + "\n" * text.count("\n", s, e)
            edits.append(Hidden("body", line_of(s), s, e, text[s:e], repl,
                                "function body of no concern to the conversion"))
    macros = _name_macros(toks)
    if macros:
        idents = {t.val for t in toks if t.kind == "ident"}
        for i, t in enumerate(toks):
            if t.pp or t.val not in macros or i + 3 >= len(toks):
                continue
            if toks[i + 1].val == "(" and toks[i + 2].kind == "ident" and toks[i + 3].val == ")":
                s, e = t.start, toks[i + 3].end
                orig = text[s:e]
                if "\n" in orig:
                    continue
                repl = "%s_%s_" % (t.val, toks[i + 2].val)
                repl += "_" * (len(orig) - len(repl))
                if len(repl) != len(orig) or repl in idents:
                    continue
                edits.append(Hidden("name-macro", line_of(s), s, e, orig, repl,
                                    "function-like macro used as a name"))
    edits.sort(key=lambda h: h.start)
    kept, last = [], -1
    for h in edits:
        if h.start >= last:
            kept.append(h)
            last = h.end
    return _splice(text, [(h.start, h.end, h.repl) for h in kept]), kept


def _splice(text, pieces):
    """text with each (start, end, new) of pieces, in order and apart, in
    place of what stood there."""
    out, pos = [], 0
    for start, end, new in pieces:
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def rewrite(text, hidden, edits):
    """hide()'s (parse_text, [Hidden]) for text with edits [(start, end,
    new)] made in it first, none inside a hidden construct: the
    constructs' offsets move with the edits, their lines do not (an edit
    keeps to its line)."""
    edits = sorted(edits)
    delta, moved, k = 0, [], 0
    for h in hidden:
        while k < len(edits) and edits[k][1] <= h.start:
            delta += len(edits[k][2]) - (edits[k][1] - edits[k][0])
            k += 1
        moved.append(Hidden(h.kind, h.line, h.start + delta, h.end + delta, h.orig, h.repl,
                            h.what))
    return _splice(_splice(text, edits), [(h.start, h.end, h.repl) for h in moved]), moved


def _runs(lines, count):
    """Maximal runs (first, last) of consecutive line numbers of lines
    that are within 1..count."""
    out = []
    for n in sorted(n for n in set(lines) if 1 <= n <= count):
        if out and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return [tuple(r) for r in out]


def restore(parsed, converted, hidden):
    """Put the hidden constructs back into coccinelle's output.

    parsed is what coccinelle read (hide()'s text), converted what it
    wrote.  Returns (text, [(line in text, message)]) where a construct
    could not be put back because the conversion rewrote its line."""
    bodies = [h for h in hidden if h.kind == "body"]
    if bodies:
        problems = []
        for h in bodies:
            parsed = parsed.replace(h.repl, h.orig, 1)
            if converted.count(h.repl) == 1:
                converted = converted.replace(h.repl, h.orig, 1)
            else:
                mark = converted.find(h.repl[:h.repl.index("*/") + 2])
                problems.append((converted.count("\n", 0, max(0, mark)) + 1,
                                 "the function body at line %d was hidden from coccinelle and "
                                 "changed: convert it by hand" % h.line))
        text, more = restore(parsed, converted, [h for h in hidden if h.kind != "body"])
        return text, problems + more
    if not hidden:
        return converted, []
    a = parsed.splitlines(True)
    b = converted.splitlines(True)
    orig_lines = {}
    starts = _line_starts(parsed)
    # each rewritten line: its text as parsed, and as the author wrote it
    for h in hidden:
        first = h.line
        last = first + h.orig.count("\n")
        for ln in range(first, last + 1):
            orig_lines.setdefault(ln, [])
            orig_lines[ln].append(h)
    author = {}
    for ln, hs in orig_lines.items():
        s = starts[ln - 1]
        e = starts[ln] if ln < len(starts) else len(parsed)
        line = parsed[s:e]
        for h in sorted(hs, key=lambda h: -h.start):
            # the part of h on this line
            hs_, he_ = max(h.start, s), min(h.end, e)
            off = hs_ - h.start
            line = line[:hs_ - s] + h.orig[off:off + (he_ - hs_)] + line[he_ - s:]
        author[ln] = line
    names = {h.repl: h.orig for h in hidden if h.kind == "name-macro"}
    name_re = re.compile(r"\b(%s)\b" % "|".join(re.escape(k) for k in names)) if names else None
    out, problems = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                ln = i1 + k + 1
                out.append(author.get(ln, b[j1 + k]))
            continue
        if tag == "delete":
            continue
        block = list(b[j1:j2])
        pending = {ln: a[ln - 1] for ln in range(i1 + 1, i2 + 1) if ln in author}
        for k, line in enumerate(block):
            for ln, parsed_line in list(pending.items()):
                if line == parsed_line:
                    block[k] = author[ln]
                    del pending[ln]
                    break
            else:
                if name_re is not None:
                    block[k] = name_re.sub(lambda m: names[m.group(1)], line)
        for ln in sorted(pending):
            for h in orig_lines[ln]:
                if h.kind == "name-macro":
                    continue
                problems.append((len(out) + 1, "%s `%s` (line %d before conversion) was hidden "
                                 "from coccinelle and its line changed: put it back by hand"
                                 % (h.what, " ".join(h.orig.split()), ln)))
        out.extend(block)
    return "".join(out), problems


_EMPTY_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s*(?://.*|/\*.*)?$", re.M)


def empty_macros(paths):
    """Names a macro file #defines as nothing (__init, __user, ...)."""
    names = set()
    for p in paths:
        try:
            with open(p, encoding="latin-1") as f:
                names.update(_EMPTY_DEFINE.findall(f.read()))
        except OSError:
            pass
    return names
