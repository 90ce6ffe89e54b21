"""Which lines of a file no workqueue kernel compiles: the branches of
#if LINUX_VERSION_CODE tests that 2.5.41, where the workqueue arrived,
does not take, and those of #if 0.  A driver kept for several kernels
(acenic's tasklets emulated on tq_immediate below 2.3.43) has task-queue
code there that the maintainers did not convert, and that must not hold
back the rest of the file."""

import re

# the kernel whose API the conversion targets: 2.5.41
TARGET = (2 << 16) | (5 << 8) | 41

_NUM = r"(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*"
_KV = r"KERNEL_VERSION\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)"
_VALUE = r"(?:\(\s*)?(%s|%s)(?:\s*\))?" % (_NUM, _KV)
_LVC = r"LINUX_VERSION_CODE"
# LINUX_VERSION_CODE OP V, or V OP LINUX_VERSION_CODE
_CMP_LEFT = re.compile(r"\b%s\s*(<=|>=|<|>)\s*%s" % (_LVC, _VALUE))
_CMP_RIGHT = re.compile(r"%s\s*(<=|>=|<|>)\s*%s\b" % (_VALUE, _LVC))
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}
_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def _value(m, first):
    if m.group(first + 1) is not None:
        a, b, c = (int(m.group(first + i)) for i in (1, 2, 3))
        return (a << 16) | (b << 8) | c
    return int(m.group(first).rstrip("uUlL"), 0)


def _comparisons(expr):
    """[(op, value)] of each LINUX_VERSION_CODE test in expr, written as
    LINUX_VERSION_CODE op value."""
    out = []
    for m in _CMP_LEFT.finditer(expr):
        out.append((m.group(1), _value(m, 2)))
    for m in _CMP_RIGHT.finditer(expr):
        out.append((_FLIP[m.group(5)], _value(m, 1)))
    return out


def _holds(op, v, target=TARGET):
    return {"<": target < v, "<=": target <= v, ">": target > v, ">=": target >= v}[op]


def target_takes(expr, target=TARGET):
    """True if the target kernel takes #if expr, False if it does not, None
    if expr says nothing certain of it.  Version tests alone, or joined by
    && alone or || alone, are evaluated; beside other conditions, one
    false test under && (one true under ||) is still certain."""
    bare = re.sub(r"[\s()]", "", expr)
    if bare in ("0", "1"):
        return bare == "1"              # #if 0: what no kernel compiles
    tests = _comparisons(expr)
    if not tests:
        return None
    held = [_holds(op, v, target) for op, v in tests]
    rest = _CMP_RIGHT.sub("", _CMP_LEFT.sub("", expr))
    alone = not re.search(r"[A-Za-z_0-9]", rest)
    has_and, has_or = "&&" in expr, "||" in expr
    if has_and and has_or:
        return None
    if has_or:
        return True if any(held) else (False if alone else None)
    if not all(held):
        return False
    return True if alone else None


def old_kernel_lines(text, target=TARGET):
    """The set of line numbers (1-based) inside a branch the target kernel
    does not take, by the LINUX_VERSION_CODE tests of the #if, #elif and
    #else around them."""
    out = set()
    # each frame: [this branch skipped, an earlier branch certainly taken]
    stack = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line, n = lines[i], i + 1
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i]
        m = _DIRECTIVE.match(line)
        if m:
            kind, expr = m.group(1), re.sub(r"/\*.*?\*/|//.*$", "", m.group(2))
            # a directive is itself skipped only inside an outer skipped branch
            outer = stack if kind in ("if", "ifdef", "ifndef") else stack[:-1]
            skipped_before = any(f[0] for f in outer)
            if kind in ("if", "ifdef", "ifndef"):
                takes = target_takes(expr) if kind == "if" else None
                stack.append([takes is False, takes is True])
            elif kind == "elif" and stack:
                f = stack[-1]
                takes = target_takes(expr)
                f[0] = f[1] or takes is False
                f[1] = f[1] or takes is True
            elif kind == "else" and stack:
                f = stack[-1]
                f[0] = f[1]
            elif kind == "endif" and stack:
                stack.pop()
            if skipped_before:
                out.update(range(n, i + 2))
        elif any(f[0] for f in stack):
            out.update(range(n, i + 2))
        i += 1
    return out
