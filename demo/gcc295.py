"""gcc295 - 2.4 code as gcc 2.95 took it, for today's gcc

2.4 was built with gcc 2.95, which took some C that today's gcc refuses.
The demo builds a copy of the driver's files (build/demo/src/NAME/legacy
and converted/, never the user's own), and rewrites in that copy what
2.95 took and gcc 12 does not, each place on its own line, so that a
diagnostic, a coverage line or a report still names the line of the
user's file:

  function-paste  __FUNCTION__ (or __PRETTY_FUNCTION__) pasted to a
                  string literal, on either side, in a macro's argument
                  too: err(__FUNCTION__ " - kmalloc failed"), or a macro's
                  whole argument that the macro pastes: dbg(__FUNCTION__).
                  2.95's __FUNCTION__ was a string literal, today's is a
                  variable: in a function, each becomes that function's
                  name as a literal, as 2.95 had it; in a #define (the
                  function is where the macro is used) a pasted run
                  becomes a string built once a thread where it is used,
                  from the same pieces.
  cast-lvalue     a cast as the left side of an assignment or of ++/--:
                  (char *) p += len, (ulong) x = v.  2.95 assigned to the
                  operand; it becomes *(T *) &(p), the same storage seen
                  as T (only where T is a pointer or a long: the size of
                  the operand on the machines 2.4 ran on and on this one).
  string-newline  a string literal running over a line's end, as 2.95
                  allowed: each line's end inside it becomes \\n" and the
                  next line starts with ", the same characters.
  extern-inline   extern inline: 2.95 never emitted such a function (a
                  definition for inlining only); C99 emits it in every
                  file, so that two files of a driver sharing the header
                  define it twice.  It becomes static inline.

One more of 2.95's ways is a flag of the build (Makefile, k24_gcc295):
-fcommon, a variable defined in a header that several files of a driver
include being one variable, as gcc 10 no longer has it by default.  What
gcc 12 only warns of (a label at the end of a block, out: }, an implicit
declaration) the build does not show (-w).
"""
import re

NAMES = {
    "function-paste": "__FUNCTION__ as a string literal, as 2.95 had it",
    "cast-lvalue": "a cast assigned to",
    "string-newline": "a string literal over a line's end",
    "extern-inline": "extern inline, made static inline",
}

KEYWORDS = set("""auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while
__inline__ __inline __volatile__ __const__ __asm__ asm typeof __typeof__
__attribute__ __extension__ __signed__""".split())
FUNCTION = ("__FUNCTION__", "__PRETTY_FUNCTION__")
# what a cast as an lvalue may cast to and keep the operand's size
LONG_TYPES = set("long ulong u_long size_t ssize_t ptrdiff_t u64 s64 __u64 __s64 "
                 "uint64_t int64_t u_int64_t".split())
TYPE_WORDS = set("unsigned signed long short int char void const volatile struct "
                 "union enum float double __signed__".split())
ASSIGN = re.compile(r"(<<=|>>=|[-+*/%&|^]?=(?!=))")

TOKEN = re.compile(r"""
    (?P<ws>[ \t\f\v]+|\\\n)
  | (?P<nl>\n)
  | (?P<comment>/\*.*?(?:\*/|\Z)|//[^\n]*)
  | (?P<str>L?"(?:[^"\\\n]|\\.|\\\n)*(?:"|(?=\n)|\Z))
  | (?P<chr>L?'(?:[^'\\\n]|\\.)*(?:'|(?=\n)|\Z))
  | (?P<id>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<num>\.?[0-9](?:[eEpP][-+]|[A-Za-z0-9_.])*)
  | (?P<punct>\#\#|->|\+\+|--|<<=|>>=|<<|>>|[-+*/%&|^!=<>]=|&&|\|\||\.\.\.|.)
""", re.S | re.X)


class Tok:
    __slots__ = ("kind", "text", "start", "end", "directive")

    def __init__(self, kind, text, start, end, directive):
        self.kind, self.text, self.start, self.end = kind, text, start, end
        self.directive = directive  # the directive the token is in, or None

    def __repr__(self):
        return "%s(%r)" % (self.kind, self.text)


def tokens(text):
    """The tokens of @text but blanks and comments, each knowing the
    preprocessor directive it lies in ("define", "if" ..., or None)."""
    out, directive, bol = [], None, True
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "nl":
            directive, bol = None, True
            continue
        if kind in ("ws", "comment"):
            if kind == "comment" and "\n" in m.group() and directive is None:
                bol = True
            continue
        t = Tok(kind, m.group(), m.start(), m.end(), directive)
        if bol and t.text == "#":
            directive = "#"
        elif directive == "#":
            directive = t.text if kind == "id" else "null"
            t.directive = "#"
        bol = False
        out.append(t)
    return out


def _pasted(toks, i):
    """Is the __FUNCTION__ at toks[i] pasted to a string: a string
    literal or a name (KERN_ERR, a macro's parameter) beside it?"""
    def joins(j):
        if j < 0 or j >= len(toks) or toks[j].directive != toks[i].directive:
            return False
        t = toks[j]
        return t.kind == "str" or (t.kind == "id" and t.text not in KEYWORDS)
    return joins(i - 1) or joins(i + 1)


def _functions(toks):
    """{index of a token: the name of the function whose body holds it}
    for the tokens outside directives; braces of the branches of an
    #if/#else count once, as the first branch has them."""
    owner, depth, name, stack, since = {}, 0, None, [], 0
    for i, t in enumerate(toks):
        if t.directive == "#":
            if t.text in ("if", "ifdef", "ifndef"):
                stack.append([depth, None])
            elif t.text in ("elif", "else") and stack:
                if stack[-1][1] is None:
                    stack[-1][1] = depth
                depth = stack[-1][0]
            elif t.text == "endif" and stack:
                d = stack.pop()
                if d[1] is not None:
                    depth = d[1]
            continue
        if t.directive is not None:
            continue
        if t.text == "{":
            if depth == 0:
                name = _declared(toks, since, i)
            depth += 1
        elif t.text == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                name, since = None, i + 1
        elif t.text == ";" and depth == 0:
            since = i + 1
        elif depth > 0 and name:
            owner[i] = name
    return owner


def _declared(toks, since, brace):
    """The name of the function whose body opens at toks[brace], from
    the tokens since the last declaration: NAME ( ... ) {"""
    code = [t for t in toks[since:brace] if t.directive is None]
    if not code or code[-1].text != ")" or any(t.text == "=" for t in code):
        return None
    for j, t in enumerate(code[:-1]):
        if t.text == "(" and j and code[j - 1].kind == "id" and \
                code[j - 1].text not in KEYWORDS and code[j - 1].text != "__attribute__":
            return code[j - 1].text
    return None


def _function_paste(text, toks, edits):
    owner = _functions(toks)
    n = 0
    for i, t in enumerate(toks):
        if t.kind != "id" or t.text not in FUNCTION:
            continue
        if t.directive is None:
            # any of them: a macro may paste its argument
            if i in owner:
                edits.append((t.start, t.end, '"%s"' % owner[i]))
                n += 1
            continue
        if t.directive != "define" or not _pasted(toks, i):
            continue
        # in a macro: the run of strings and names it is pasted in
        a = i
        while a - 1 >= 0 and toks[a - 1].directive == "define" and (
                toks[a - 1].kind == "str" or
                (toks[a - 1].kind == "id" and toks[a - 1].text not in KEYWORDS and
                 not (a - 2 >= 0 and toks[a - 2].text == "define")) or
                (toks[a - 1].text == "#" and toks[a].kind == "id")):
            a -= 1
        b = i
        while b + 1 < len(toks) and toks[b + 1].directive == "define" and (
                toks[b + 1].kind == "str" or
                (toks[b + 1].kind == "id" and toks[b + 1].text not in KEYWORDS) or
                (toks[b + 1].text == "#" and b + 2 < len(toks) and toks[b + 2].kind == "id")):
            b += 1
        left = text[toks[a].start:t.start] if a < i else '""'
        right = text[t.end:toks[b].end] if b > i else '""'
        # the macro's lines stay where they were: its continuations after
        lines = (left + right).count("\\\n")
        left, right = (" ".join(x.replace("\\\n", " ").split()) for x in (left, right))
        f = t.text
        edits.append((toks[a].start, toks[b].end,
                      "({ static __thread char __f295[sizeof(%s) + sizeof(%s) + sizeof(%s) - 2]; "
                      "if (!__f295[0]) { __builtin_strcpy(__f295, %s); "
                      "__builtin_strcat(__f295, %s); __builtin_strcat(__f295, %s); } "
                      "(const char *) __f295; })%s" % (left, f, right, left, f, right,
                                                       " \\\n" * lines)))
        n += 1
    return n


def _cast_type(toks, a, b):
    """Is toks[a+1:b] (between a cast's parentheses) a pointer type or a
    long one?"""
    inner = toks[a + 1:b]
    if not inner or any(t.kind not in ("id", "punct") for t in inner):
        return False
    words = [t.text for t in inner if t.kind == "id"]
    stars = [t.text for t in inner if t.kind == "punct"]
    if any(s != "*" for s in stars) or not words:
        return False
    if stars:
        # T *: every word a type word, or one name (a typedef) among them
        others = [w for w in words if w not in TYPE_WORDS]
        return len(others) <= 1 if words[0] not in ("struct", "union", "enum") \
            else len(others) == 1
    return (words.count("long") == 1 and all(w in TYPE_WORDS for w in words)) or \
        (len(words) == 1 and words[0] in LONG_TYPES)


def _cast_lvalue(text, toks, edits):
    n = 0
    for a, t in enumerate(toks):
        if t.text != "(" or t.directive not in (None, "define"):
            continue
        prev = toks[a - 1] if a else None
        if prev and prev.directive == t.directive and (
                prev.kind in ("id", "num", "str") and prev.text != "return" or
                prev.text in (")", "]")):
            continue
        b = a + 1
        while b < len(toks) and toks[b].text != ")" and b - a < 12:
            b += 1
        if b >= len(toks) or toks[b].text != ")" or not _cast_type(toks, a, b):
            continue
        # the operand: a name and its members and subscripts
        c = b + 1
        if c >= len(toks) or toks[c].kind != "id" or toks[c].text in KEYWORDS:
            continue
        e = c
        while e + 1 < len(toks):
            nx = toks[e + 1]
            if nx.text in (".", "->") and e + 2 < len(toks) and toks[e + 2].kind == "id":
                e += 2
            elif nx.text == "[":
                depth, k = 0, e + 1
                while k < len(toks):
                    depth += {"[": 1, "]": -1}.get(toks[k].text, 0)
                    if depth == 0:
                        break
                    k += 1
                if k >= len(toks):
                    break
                e = k
            else:
                break
        if e + 1 >= len(toks) or not ASSIGN.fullmatch(toks[e + 1].text):
            continue
        edits.append((t.start, t.start, "*"))
        edits.append((toks[b].start, toks[b].start, " *"))
        edits.append((toks[c].start, toks[c].start, "&("))
        edits.append((toks[e].end, toks[e].end, ")"))
        n += 1
    return n


def _string_newline(text, toks, edits):
    """A string literal whose line ends before its closing quote, that
    quote on a later line with no directive between: the newlines
    inside are 2.95's."""
    n, i, size, directive, bol = 0, 0, len(text), False, True
    while i < size:
        c = text[i]
        if c == "\n":
            directive, bol = False, True
            i += 1
            continue
        if c in " \t":
            i += 1
            continue
        if bol and c == "#":
            directive = True
        bol = False
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = size if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = size if j < 0 else j
        elif c == "\\":
            i += 2
        elif c in "\"'":
            j, ends = i + 1, []
            while j < size and text[j] != c:
                if text[j] == "\\":
                    j += 1
                elif text[j] == "\n":
                    if c == "'" or directive or text[j + 1:j + 2] == "#" or len(ends) > 40:
                        break
                    ends.append(j)
                j += 1
            if j < size and text[j] == c:
                for p in ends:
                    edits.append((p, p + 1, '\\n"\n"'))
                n += 1 if ends else 0
                i = j + 1
            else:
                # not closed: as today's gcc sees it, up to the line's end
                i = ends[0] if ends else j
        else:
            i += 1
    return n


EXTERN_INLINE = re.compile(r"\bextern(\s+)(__inline__|__inline|inline)\b|"
                           r"\b(__inline__|__inline|inline)(\s+)extern\b")


def _extern_inline(text, toks, edits):
    n = 0
    code = {t.start for t in toks if t.kind == "id" and t.text == "extern"}
    for m in EXTERN_INLINE.finditer(text):
        at = m.start() if m.group(1) is not None else m.end() - len("extern")
        if at in code:
            edits.append((at, at + len("extern"), "static"))
            n += 1
    return n


def rewrite(text):
    """@text as today's gcc takes it; (the text, {rewrite: places})."""
    out = {}
    for name, fn in (("string-newline", _string_newline),):
        edits = []
        out[name] = fn(text, tokens(text), edits)
        text = _apply(text, edits)
    toks = tokens(text)
    edits = []
    for name, fn in (("function-paste", _function_paste), ("cast-lvalue", _cast_lvalue),
                     ("extern-inline", _extern_inline)):
        out[name] = fn(text, toks, edits)
    text = _apply(text, edits)
    return text, {k: v for k, v in out.items() if v}


def _apply(text, edits):
    for a, b, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:a] + new + text[b:]
    return text


def rewrite_file(path):
    """Rewrite the file at @path (a build's copy) in place; {rewrite: places}."""
    with open(path, errors="surrogateescape") as f:
        text = f.read()
    new, counts = rewrite(text)
    if counts:
        with open(path, "w", errors="surrogateescape") as f:
            f.write(new)
    return counts


def describe(counts):
    """ "__FUNCTION__ pasted to a string literal, 23 places; ..." """
    return "; ".join("%s, %d place%s" % (NAMES[k], n, "" if n == 1 else "s")
                     for k, n in sorted(counts.items()))
