"""blocks - which source lines a run of a driver reached, without gcov.

A driver built for the device search (make SEARCH=1: gcc's
-fsanitize-coverage=trace-pc in its own sources) calls
__sanitizer_cov_trace_pc at the start of each basic block, and the
generic device reports the blocks that ran ("blocks" of
SHIM_DEVICE_REPORT, world/sancov.c), each by the address that call
returns to.  A block runs whole once entered, so the lines it reaches
are those of its instructions, up to the next block's call: read once
from the binary's disassembly with its line table (objdump -dl), then
a run's lines are a union of sets, where gcov's would be a process and
a file per run.
"""
import collections
import os
import re
import subprocess

FUNCTION = re.compile(r"^[0-9a-f]+ <(.+)>:$")
WHERE = re.compile(r"^(/[^:]+):(\d+)(?: \(discriminator \d+\))?$")
INSN = re.compile(r"^\s+([0-9a-f]+):\t(.*)$")
TRACE = "<__sanitizer_cov_trace_pc>"


class Blocks:
    """The blocks of @exe's instrumented code and the lines of each, for
    the files of @files (absolute paths; None: every file)."""

    def __init__(self, exe, files=None):
        self.exe = os.path.abspath(exe)
        self.lines = self._read(set(files) if files is not None else None)

    def _read(self, files):
        r = subprocess.run(["objdump", "-dl", "--no-show-raw-insn", self.exe],
                           capture_output=True, text=True, errors="replace")
        out = collections.defaultdict(set)
        block, where, after_call = None, None, False
        for line in r.stdout.splitlines():
            m = INSN.match(line)
            if m:
                addr = int(m.group(1), 16)
                if after_call:
                    # the address the block's call returns to names it
                    block, after_call = addr, False
                if TRACE in m.group(2) and m.group(2).startswith("call"):
                    after_call = True
                elif block is not None and where and (files is None or where[0] in files):
                    out[block].add(where)
                continue
            m = WHERE.match(line)
            if m:
                where = (os.path.normpath(m.group(1)), int(m.group(2)))
                continue
            if FUNCTION.match(line):
                block, where, after_call = None, None, False
        return {b: frozenset(ls) for b, ls in out.items()}

    def __len__(self):
        return len(self.lines)

    def reached(self, blocks):
        """The (file, line)s the blocks of a run's report reached."""
        out = set()
        for b in blocks or ():
            out |= self.lines.get(b, frozenset())
        return frozenset(out)
