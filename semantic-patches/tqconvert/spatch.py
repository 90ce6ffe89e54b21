"""Running spatch: processes with a memory and time limit (Runner), groups
of files (Chunk, make_chunks), the stages combined into one semantic
patch, and what spatch says (parse errors, TQSTAT records)."""

import os
import re
import signal
import subprocess
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, wait

from .common import HERE, STAGES, Interrupted, SpatchError, err


# A group of files for one spatch process: at most this many files and
# this many bytes of source, about half of which coccinelle parses (the
# include cache of one process grows with the headers its files include).
CHUNK_FILES = 24


CHUNK_BYTES = 640 * 1024


# spatch looks for python3 on PATH at every start; behind a version
# manager's shim that costs a second a run.  Hand it a real interpreter
# (TQ_SPATCH_PYTHON, else the one running this script); if spatch refuses
# it, run() drops the option and carries on.
_python = [os.environ.get("TQ_SPATCH_PYTHON") or os.path.realpath(sys.executable)]


VERBOSE = [False]


class Runner:
    """Starts spatch processes, each in its own process group so that one
    signal stops it and whatever it started; measures their peak resident
    memory (wait4) and stops any that grows past the limit."""

    def __init__(self, tmp, max_rss_kb):
        self.tmp = tmp
        self.max_rss_kb = max_rss_kb
        self.lock = threading.Lock()
        self.children = {}
        self.stopping = None
        self.peak_kb = 0
        self.runs = 0
        self.seq = 0
        self.cpu = {}           # step -> CPU seconds of its spatch runs

    def stop_all(self, signum):
        with self.lock:
            if self.stopping is None:
                self.stopping = signum
            kids = list(self.children)
        for pid in kids:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass

    def _watch(self, pid, done, over, hwm):
        """Stop the process past the limit; keep its VmHWM, the peak of
        its own memory.  (wait4's ru_maxrss would not do: Linux counts in
        it the memory of this process, the parent it was forked from.)"""
        path = "/proc/%d/status" % pid
        wait = 0.02
        while not done.wait(wait):
            wait = min(0.2, wait * 2)
            try:
                with open(path) as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            hwm[0] = max(hwm[0], int(line.split()[1]))
                        elif line.startswith("VmRSS:"):
                            if int(line.split()[1]) > self.max_rss_kb:
                                over.append(int(line.split()[1]))
                                os.killpg(pid, signal.SIGKILL)
                                return
                            break
            except (OSError, ValueError):
                return

    def spawn(self, cmd, env, wall, step="spatch"):
        """(exit status, output text, peak kB, why it was stopped or None)."""
        with self.lock:
            if self.stopping is not None:
                raise Interrupted(self.stopping)
            self.seq += 1
            log = os.path.join(self.tmp, "spatch.%d.log" % self.seq)
        if VERBOSE[0]:
            err("+ " + " ".join(cmd))
        with open(log, "wb") as out:
            try:
                p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                     cwd=self.tmp, start_new_session=True)
            except FileNotFoundError:
                raise SpatchError("spatch not found (install coccinelle 1.1.1 or later)")
        with self.lock:
            self.children[p.pid] = p
            stopping = self.stopping
        if stopping is not None:
            os.killpg(p.pid, signal.SIGKILL)
        done, over, hwm = threading.Event(), [], [0]
        watcher = threading.Thread(target=self._watch, args=(p.pid, done, over, hwm),
                                   daemon=True)
        watcher.start()
        timer = threading.Timer(wall, lambda: over.append("wall") or self._kill(p.pid))
        timer.daemon = True
        timer.start()
        try:
            _, status, usage = os.wait4(p.pid, 0)
        finally:
            done.set()
            timer.cancel()
            with self.lock:
                self.children.pop(p.pid, None)
                stopping = self.stopping
        p.returncode = os.waitstatus_to_exitcode(status)
        watcher.join()
        with self.lock:
            self.peak_kb = max(self.peak_kb, hwm[0])
            self.runs += 1
            self.cpu[step] = self.cpu.get(step, 0.0) + usage.ru_utime + usage.ru_stime
        if stopping is not None:
            raise Interrupted(stopping)
        with open(log, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        os.unlink(log)
        why = None
        if over:
            why = "took more than %d s" % wall if over[0] == "wall" else \
                "grew past %d MB of memory" % (self.max_rss_kb // 1024)
        if VERBOSE[0]:
            if text.strip():
                err(text.rstrip())
            err("  (%s: %.1f s CPU, %d MB)" % (
                step, usage.ru_utime + usage.ru_stime, hwm[0] // 1024))
        return p.returncode, text, hwm[0], why

    def _kill(self, pid):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass

    def spatch(self, args, env_extra, wall, step="spatch"):
        env = dict(os.environ)
        for k in ("TQ_RENAME_MAP",):
            env.pop(k, None)
        env["PYTHONPATH"] = HERE + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.update(env_extra or {})
        if _python[0]:
            rc, text, kb, why = self.spawn(["spatch", "--python", _python[0]] + args, env, wall,
                                           step)
            if why or rc == 0 or "python" not in text.lower():
                return rc, text, kb, why
            _python[0] = None
        return self.spawn(["spatch"] + args, env, wall, step)


_WHERE = re.compile(r'File "(.*)", line (\d+), column')


_EXN = re.compile(r"^EXN: *(.*?) in (\S.*?)\s*$", re.M)


def parse_errors(text, by_work):
    """{entry: [(line, near)]} from spatch --parse-c output."""
    found = {}
    cur = None
    where = None
    for line in text.splitlines():
        if line.startswith(("PARSING: ", "HANDLING: ")):
            # one file per group: HANDLING names it (a group of several
            # files would name them all on one line)
            cur = by_work.get(line.split(": ", 1)[1].strip())
            where = None
            continue
        if cur is None:
            continue
        m = _WHERE.search(line)
        if m:
            # an included header's errors are not the file's
            where = int(m.group(2)) if m.group(1) == cur.work else None
            continue
        if line.startswith("BAD:!!!!!") and where:
            found.setdefault(cur, []).append((where, line[9:].strip()))
            where = None
    return found


class Chunk:
    """Files one spatch process handles, each its own file group."""

    def __init__(self, entries, tmp, n, path=lambda e: e.work):
        self.entries = entries
        self.stages = tuple(st for st in STAGES if any(st in e.stages for e in entries))
        self.n = n
        self.groups = os.path.join(tmp, "groups.%d" % n)
        with open(self.groups, "w") as f:
            f.write("\n\n".join(path(e) for e in entries) + "\n")

    @property
    def size(self):
        return sum(e.size for e in self.entries)


def make_chunks(entries, jobs, tmp, counter, path=lambda e: e.work):
    """Groups of files, by directory, bounded in count and in bytes of
    source, and at least two per job when there are enough
    files.  Each spatch run costs about a second of CPU to start (its
    Python, the semantic patch, the macro files), more than matching the
    few functions of a file that concern it: a group runs the union of its
    files' stages."""
    per = max(1, min(CHUNK_FILES, -(-len(entries) // (2 * jobs))))
    bins, cur, size = [], [], 0
    for e in sorted(entries, key=lambda e: (os.path.dirname(e.src), e.src)):
        if cur and (len(cur) >= per or size + e.size > CHUNK_BYTES):
            bins.append(cur)
            cur, size = [], 0
        cur.append(e)
        size += e.size
    if cur:
        bins.append(cur)
    out = []
    for b in bins:
        counter[0] += 1
        out.append(Chunk(b, tmp, counter[0], path))
    return sorted(out, key=lambda c: -c.size)


_RULE = re.compile(r"^@(?:script:python\s+)?(\w+)(?:\s+depends on [^@]*)?@\s*$", re.M)


def combine(stages, path):
    """One semantic patch made of the stage files in order, so that spatch
    (and its python) starts once per file group, not once per stage.  Rules
    apply in order, each to the result of the ones before: the same as
    running the files one after the other."""
    virtuals, bodies, names = [], [], {}
    # every stage's virtual rules, used or not: spatch refuses a -D
    # (tq_timer_delayed, rename) that the patch it runs does not declare
    for st in STAGES:
        with open(os.path.join(HERE, st)) as f:
            for v in re.findall(r"^virtual\s+(\w+)\s*$", f.read(), re.M):
                if v not in virtuals:
                    virtuals.append(v)
    for st in stages:
        with open(os.path.join(HERE, st)) as f:
            text = f.read()
        body = []
        for line in text.splitlines(True):
            m = re.match(r"^virtual\s+(\w+)\s*$", line)
            if m:
                if m.group(1) not in virtuals:
                    virtuals.append(m.group(1))
                continue
            body.append(line)
        for name in _RULE.findall(text):
            if name in ("initialize", "depends"):
                continue
            if name in names:
                raise SpatchError("rule name %s is in both %s and %s" % (name, names[name], st))
            names[name] = st
        bodies.append("// " + "=" * 60 + " " + st + "\n" + "".join(body))
    with open(path, "w") as f:
        f.write("".join("virtual %s\n" % v for v in virtuals) + "\n" + "\n".join(bodies))
    return path


def stats_lines(out, by_work, sink):
    for line in out.splitlines():
        if not line.startswith("TQSTAT\t"):
            continue
        _, kind, idiom, fname, ln, msg = (line.split("\t", 5) + [""] * 6)[:6]
        e = by_work.get(fname)
        if e is None:
            continue
        try:
            sink(e, kind, idiom, int(ln), msg)
        except ValueError:
            continue


def run_all(pool, fn, items):
    """fn over items on the pool; the main thread keeps taking signals."""
    futs = [pool.submit(fn, it) for it in items]
    try:
        pending = set(futs)
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for f in done:
                f.result()
    finally:
        for f in futs:
            f.cancel()
    return [f.result() for f in futs]
