"""Spatch's output tidied, in the lines it wrote only."""

import difflib


def _width(line):
    return len(line.rstrip("\r\n").expandtabs(8))


def _rejoin(lines):
    """Join a call spatch wrapped at 80 columns when a later rule made it
    short again (INIT_WORK(&ct->work,\n f,\n ct); once the casts went)."""
    out = []
    for line in lines:
        if out:
            prev = out[-1].rstrip("\r\n")
            joined = prev + ("" if prev.endswith("(") else " ") + line.strip()
            if (prev.endswith(",") or prev.endswith("(")) and \
               prev.count("(") > prev.count(")") and line.strip() and \
               not line.lstrip().startswith(("#", "/*", "//")) and _width(joined) <= 80:
                out[-1] = joined + out[-1][len(out[-1].rstrip("\r\n")):]
                continue
        out.append(line)
    return out


# what tqueue-immediate.cocci writes above a schedule_work() (it takes no
# continuation in a #define)
_COMMENT = "/* was an immediate bottom half: this work now runs in process context */"


def _in_macros(lines):
    """The comment spatch puts on a line of its own where the statement it
    replaced was in a #define body ends that body there: drop it, and
    join the line it left to the next."""
    out = []
    skip = False
    for k, line in enumerate(lines):
        if skip:
            skip = False
            continue
        if _COMMENT in line:
            prev = out[-1].rstrip("\r\n") if out else ""
            if line.lstrip().startswith("#") or prev.endswith("\\"):
                rest = line.replace(_COMMENT, "").rstrip(" \t\r\n")
                if not rest.strip():
                    # the statement below it takes its indentation
                    if k + 1 < len(lines):
                        indent = line[:len(line) - len(line.lstrip(" \t"))]
                        out.append(indent + lines[k + 1].lstrip(" \t"))
                        skip = True
                    continue
                if k + 1 < len(lines):
                    out.append(rest + " " + lines[k + 1].lstrip(" \t"))
                    skip = True
                    continue
        out.append(line)
    return out


def tidy(old, new):
    """Clean up after spatch, in the lines it wrote only: drop the
    whitespace-only lines it leaves where it removed a statement after
    `...` (no more than the new text has in excess of the old one), and
    join a call it wrapped that fits on one line now."""
    if old == new:
        return new
    a, b = old.splitlines(True), new.splitlines(True)

    def blank(line):
        return line.strip() == "" and line not in ("\n", "\r\n")
    extra = {}
    for line in b:
        if blank(line):
            extra[line] = extra.get(line, 0) + 1
    for line in a:
        if line in extra:
            extra[line] -= 1
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.extend(b[j1:j2])
            continue
        block = []
        for line in b[j1:j2]:
            if extra.get(line, 0) > 0:
                extra[line] -= 1
                continue
            block.append(line)
        out.extend(_rejoin(block))
    if _COMMENT in new:
        out = _in_macros(out)
    return "".join(out)
