"""report - the demo's output: progress on the terminal, report.md and report.json."""
import json
import os
import sys

TTY = sys.stdout.isatty()


def bold(s):
    return "\033[1m%s\033[0m" % s if TTY else s


class StepFailed(Exception):
    """A step the demo cannot go on from: what it would compare is not
    what was asked for (a patch that does not apply, a conversion or a
    build that failed)."""

    def __init__(self, step, why):
        Exception.__init__(self, "%s: %s" % (step, why))
        self.step, self.why = step, why


def say(msg=""):
    print(msg, flush=True)


def table(headers, rows):
    """A plain-text table, and the same as markdown."""
    cols = [[str(h)] + [str(r[i]) for r in rows] for i, h in enumerate(headers)]
    width = [max(len(c) for c in col) for col in cols]

    def line(r):
        return "  ".join(str(v).ljust(w) for v, w in zip(r, width)).rstrip()

    text = [line(headers), line(["-" * w for w in width])] + [line(r) for r in rows]
    md = ["| " + " | ".join(str(h) for h in headers) + " |",
          "|" + "|".join("---" for _ in headers) + "|"]
    md += ["| " + " | ".join(str(v).replace("|", "\\|") for v in r) + " |" for r in rows]
    return "\n".join(text), "\n".join(md)


class Report:
    def __init__(self):
        self.md = ["# Conversion report", ""]
        self.data = {"conversion": {}, "declarations": [], "scenarios": [],
                     "flushes": [], "coverage": {}, "concurrency": {}, "exploration": {},
                     "headline": {}, "properties": {}, "verdict": None}
        self.steps = 0

    def step(self, title):
        self.steps += 1
        say()
        say(bold("== %d. %s" % (self.steps, title)))

    def section(self, title, headers, rows, note=None, quiet=False):
        text, md = table(headers, rows)
        if not quiet:
            say(text)
        self.md += ["## " + title, ""]
        if note:
            self.md += [note, ""]
        self.md += [md if rows else "(none)", ""]
        if note and not quiet:
            say(note)

    def paragraph(self, text, quiet=False):
        if not quiet:
            say(text)
        self.md += [text, ""]

    def write(self, out):
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "report.md"), "w") as f:
            f.write("\n".join(self.md))
        with open(os.path.join(out, "report.json"), "w") as f:
            json.dump(self.data, f, indent=1)
