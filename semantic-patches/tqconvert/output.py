"""Writing: every file replaced whole or none (Writer), temporary folders
(make_tmp, clean_stale), and the progress line."""

import json
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
import threading
import time

from .common import err


class Progress:
    """files done / candidates and seconds, on one line that updates on a
    terminal, as a plain line at most every few seconds otherwise."""

    def __init__(self, total, quiet):
        self.total = total
        self.what = ""
        self.done = 0
        self.failed = 0
        self.t0 = time.monotonic()
        self.quiet = quiet or total == 0
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.lock = threading.Lock()
        self.shown = False

    def phase(self, what, total):
        """Count again, for a second pass over total files."""
        with self.lock:
            self.what, self.done, self.total = what, 0, total

    def line(self):
        s = "convert: %s%d/%d files, %.1f s" % (
            self.what + " " if self.what else "", self.done, self.total,
            time.monotonic() - self.t0)
        if self.failed:
            s += ", %d not completely parsed" % self.failed
        return s

    def add(self, n, failed):
        with self.lock:
            self.done += n
            self.failed += failed
            if self.quiet:
                return
            now = time.monotonic()
            if self.tty:
                sys.stderr.write("\r\033[K" + self.line())
                sys.stderr.flush()
                self.shown = True
            elif now - self.last >= 5 or self.done == self.total:
                sys.stderr.write(self.line() + "\n")
                sys.stderr.flush()
                self.last = now

    def end(self):
        with self.lock:
            if self.tty and self.shown:
                sys.stderr.write("\r\033[K" + self.line() + "\n")
                sys.stderr.flush()
                self.shown = False


def writable(path):
    """Mode bits, not access(): we may be root, who ignores them."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    if os.geteuid() != 0:
        return os.access(path, os.W_OK)
    return bool(st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


class Writer:
    """Writes every file in two steps: each new text to a temporary file
    beside its target (named in the journal of the temporary folder, so
    that a run killed with -9 has them removed by the next one), then,
    with SIGINT, SIGTERM and SIGHUP held back, every rename at once."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def __init__(self, tmp):
        self.journal = open(os.path.join(tmp, "journal"), "a")
        self.todo = []
        self.committed = False
        self.durable = True

    def stage(self, path, data, mode=None, owner=None):
        d = os.path.dirname(os.path.abspath(path))
        base = os.path.basename(path)
        for _ in range(100):
            tmp = os.path.join(d, ".%s.tqconvert-%d-%s.tmp" % (
                base, os.getpid(), os.urandom(4).hex()))
            self.journal.write(json.dumps(tmp) + "\n")
            self.journal.flush()
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                break
            except FileExistsError:
                continue
        self.todo.append((tmp, path))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if self.durable:
                # replacing an author's file: its new text on disk first
                os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, stat.S_IMODE(mode))
        if owner is not None and os.geteuid() == 0:
            os.chown(tmp, owner[0], owner[1])

    def commit(self):
        old = signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGNALS)
        try:
            while self.todo:
                tmp, path = self.todo[0]
                os.replace(tmp, path)
                self.todo.pop(0)
            self.committed = True
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def abort(self):
        for tmp, _ in self.todo:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        self.todo = []

    def close(self):
        self.journal.close()


def atomic_write(path, text):
    """Replace path by text once text is complete."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".convert", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("latin-1"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _start_time(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def make_tmp():
    tmp = tempfile.mkdtemp(prefix="tqconvert.")
    with open(os.path.join(tmp, "owner"), "w") as f:
        f.write("%d %s\n" % (os.getpid(), _start_time(os.getpid()) or "-"))
    return tmp


def clean_stale(verbose=False):
    """Remove the tqconvert.* folders of runs that are gone (killed with
    -9), and the temporary files their journals name."""
    top = tempfile.gettempdir()
    try:
        names = os.listdir(top)
    except OSError:
        return
    for name in names:
        if not name.startswith("tqconvert."):
            continue
        d = os.path.join(top, name)
        try:
            st = os.lstat(d)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
            continue
        alive = False
        try:
            with open(os.path.join(d, "owner")) as f:
                pid, start = f.read().split()[:2]
            if _start_time(int(pid)) == start or (start == "-" and os.path.exists("/proc/" + pid)):
                alive = True
        except (OSError, ValueError):
            # no owner file yet: a run that is starting, unless it is old
            alive = time.time() - st.st_mtime < 600
        if alive:
            continue
        try:
            with open(os.path.join(d, "journal")) as f:
                for line in f:
                    try:
                        p = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(p, str) and re.match(r"^\..*\.tqconvert-\d+-[0-9a-f]+\.tmp$",
                                                       os.path.basename(p)):
                        try:
                            os.unlink(p)
                        except OSError:
                            pass
        except OSError:
            pass
        shutil.rmtree(d, ignore_errors=True)
        if verbose:
            err("convert: removed %s, left by a run that was killed" % d)
