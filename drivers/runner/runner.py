"""runner - the drivers, their scenario binaries, and what a scenario says.

The one place, for the scripts, that knows the driver manifest
(drivers/manifest), how scenario binaries are built (through make) and
run (one scenario per process), and the JSON a run prints:

  {"driver":..,"scenario":..,"stack":..,"seed":N,"concurrent":bool,
   "observables":{..},"invariants":{..},"stats":{..},"exact_counts":[..],
   "leaks":N,"ok":bool}

and, when the demo's monitor is linked in, a second line
{"monitor": {...}} (demo/monitor.c says what it holds).
"""
import collections
import json
import os
import re
import subprocess
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(TOP, "build")
MANIFEST = os.path.join(TOP, "drivers", "manifest")
SIDES = {"legacy": "taskqueue", "converted": "workqueue"}

Driver = collections.namedtuple("Driver", "name sources scenarios")

# The environment every run of a binary gets, by its path: a driver of
# one's own runs on the device its search found (SHIM_DEVICE,
# SHIM_MODPARAMS), whoever runs it, and a replay line says so.
ENV_OF = {}


def env_of(exe):
    return ENV_OF.get(os.path.abspath(exe), {})


def env_words(exe):
    """The settings a replay line of @exe starts with ("" for none)."""
    import shlex
    return "".join("%s=%s " % (k, shlex.quote(v))
                   for k, v in sorted(env_of(exe).items()))


Scenario = collections.namedtuple("Scenario", "driver name concurrent what")


class ManifestError(Exception):
    pass


def drivers(path=MANIFEST):
    """The drivers of the manifest, in its order."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) != 3 or not fields[0] or not fields[1].split() or \
                    not fields[2].split():
                raise ManifestError("%s:%d: expected 'driver | sources | scenarios', "
                                    "got %r" % (path, n, line))
            out.append(Driver(fields[0], fields[1].split(), fields[2].split()))
    return out


def driver_names():
    return [d.name for d in drivers()]


def cpus():
    """The CPUs a demo may keep busy: all of the machine's, or DEMO_JOBS
    (make demo TREE= runs several demos at once, a CPU or so each)."""
    try:
        return max(1, int(os.environ.get("DEMO_JOBS") or 0)) if os.environ.get("DEMO_JOBS") \
            else (os.cpu_count() or 1)
    except ValueError:
        return os.cpu_count() or 1


def make(*targets, **variables):
    """Run make on the tree's Makefile; its output if it fails (else None).
    Its objects compile on the CPUs a demo may keep busy."""
    cmd = ["make", "-s", "--no-print-directory", "-j%d" % cpus(), "-C", TOP] + list(targets)
    cmd += ["%s=%s" % (k, v) for k, v in variables.items() if v is not None]
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    return None if r.returncode == 0 else (r.stdout + r.stderr)


def build_side(side, out, srcdir=None, extra_objs=(), binaries=None, coverage=False):
    """A side's scenario binaries into @out (with gcov counters in the
    driver's sources if @coverage); None, or make's complaint."""
    return make("side-binaries", OUT=out, STACK=SIDES[side],
                SRCDIR=srcdir or os.path.join(TOP, "drivers", side),
                EXTRA_OBJS=" ".join(extra_objs) or None,
                BINARIES=" ".join(binaries) if binaries else None,
                COVERAGE=1 if coverage else None)


def build_binary(binary, side, srcdir, sources, scenario_files, extra_objs=(),
                 coverage=False):
    """One binary of a driver of one's own; None, or make's complaint."""
    return make("scenario-binary", BINARY=binary, STACK=SIDES[side], SRCDIR=srcdir,
                SOURCES=" ".join(sources), SCENARIO_FILES=" ".join(scenario_files),
                EXTRA_OBJS=" ".join(extra_objs) or None, COVERAGE=1 if coverage else None)


def scenarios_of(exe, driver=None):
    """The scenarios a binary holds (of @driver only, if given)."""
    r = subprocess.run([exe, "--list"], capture_output=True, text=True, check=True)
    out = []
    for line in r.stdout.splitlines():
        f = line.split("\t")
        if len(f) >= 3 and (driver is None or f[0] == driver):
            out.append(Scenario(f[0], f[1], f[2] == "concurrent", f[3] if len(f) > 3 else ""))
    return out


Result = collections.namedtuple(
    "Result", "rc scenario monitor stdout stderr seconds")


def parse(stdout):
    """(scenario, monitor) objects of a run's output, None where missing."""
    scn = mon = None
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if "monitor" in obj:
            mon = obj["monitor"]
        elif "observables" in obj:
            scn = obj
    return scn, mon


def run(exe, driver, scenario, seed=1, env=None, timeout=120, sched=None):
    """Run one scenario in its own process.  rc is the exit status, a
    negative signal number, or "timeout"."""
    # warnings too: a kernel WARNING is a finding of its own (compare.py)
    e = dict(os.environ, SHIM_LOGLEVEL="5")
    e.pop("SHIM_SCHED", None)
    e.pop("SHIM_SCHED_LOG", None)
    if sched:
        e["SHIM_SCHED"] = sched
    e.update(env_of(exe))
    e.update(env or {})
    t = time.time()
    try:
        r = subprocess.run([exe, "--driver", driver, "--scenario", scenario,
                            "--seed", str(seed)], capture_output=True, text=True,
                           errors="replace", env=e, timeout=timeout)
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as x:
        rc = "timeout"
        out = (x.stdout or b"").decode(errors="replace") if isinstance(x.stdout, bytes) \
            else (x.stdout or "")
        err = (x.stderr or b"").decode(errors="replace") if isinstance(x.stderr, bytes) \
            else (x.stderr or "")
    scn, mon = parse(out)
    return Result(rc, scn, mon, out, with_oops_at(exe, rc, err), round(time.time() - t, 3))


# The shim's oops (shim/traps.c) gives the faulting ip; the host's call
# trace after it, glibc's backtrace_symbols_fd(), the frames as
# "object(+offset)[address]", which give where the object was loaded.
_OOPS_IP = re.compile(r"Oops: .*, ip ([0-9a-f]+)$", re.M)
_FRAME = re.compile(r"^(\S+)\(\+0x([0-9a-f]+)\)\[0x([0-9a-f]+)\]$", re.M)
_SYMBOLS = {}       # (exe, mtime) -> [(start, size, name)] of its functions


def _functions(exe):
    try:
        key = (exe, os.stat(exe).st_mtime)
    except OSError:
        return []
    if key not in _SYMBOLS:
        try:
            text = subprocess.run(["nm", "-S", "--defined-only", exe], capture_output=True,
                                  text=True, errors="replace", timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            text = ""
        syms = []
        for line in text.splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in "tTwW":
                syms.append((int(f[0], 16), int(f[1], 16), f[3]))
        _SYMBOLS[key] = sorted(syms)
    return _SYMBOLS[key]


def oops_at(exe, err):
    """The kernel's "EIP is at function+0xoff/0xsize" line for an oops in
    a run's stderr, the faulting ip found in the binary's symbols, or
    None: the function a driver faulted in, without a debugger."""
    m = _OOPS_IP.search(err or "")
    if not m:
        return None
    ip = int(m.group(1), 16)
    name = os.path.basename(exe)
    for f in _FRAME.finditer(err, m.end()):
        if os.path.basename(f.group(1)) != name:
            continue
        at = ip - (int(f.group(3), 16) - int(f.group(2), 16))
        for start, size, sym in _functions(exe):
            if start <= at < start + size:
                return "EIP is at %s+0x%x/0x%x" % (sym, at - start, size)
        return None
    return None


def with_oops_at(exe, rc, err):
    """err, and after it where the oops was, if the run died of one."""
    if isinstance(rc, int) and rc < 0 and "Oops: " in (err or ""):
        at = oops_at(exe, err)
        if at:
            return err + ("" if err.endswith("\n") else "\n") + at + "\n"
    return err


BATCH_LINE = re.compile(r"^# batch (\d+) (SHIM_SCHED=\S*|exit -?\d+|signal \d+)$")


def split_batch(text):
    """{index: (its output, its end: "exit N" or "signal N" or None)} of
    a batch's stdout or stderr, split at its "# batch N" lines."""
    out, cur = {}, None
    for line in text.splitlines(True):
        m = BATCH_LINE.match(line.rstrip("\n"))
        if not m:
            if cur is not None:
                out[cur][0].append(line)
            continue
        n = int(m.group(1))
        if m.group(2).startswith("SHIM_SCHED="):
            cur = n
            out[n] = ([], None)
        elif n in out:
            out[n] = (out[n][0], m.group(2))
            cur = None
    return {n: ("".join(t), end) for n, (t, end) in out.items()}


def run_batch(exe, driver, scenario, scheds, seed=1, env=None, timeout=120):
    """Run one scenario under each SHIM_SCHED setting of @scheds, all in
    one process (SHIM_SCHED_BATCH, shim/host.c): a Result per setting, in
    order, or None for a setting the batch never reached (it died)."""
    e = dict(os.environ, SHIM_LOGLEVEL="5", SHIM_SCHED_BATCH=" ".join(scheds),
             SHIM_SCHED_BATCH_TIMEOUT=str(timeout))
    e.pop("SHIM_SCHED", None)
    e.pop("SHIM_SCHED_LOG", None)
    e.update(env_of(exe))
    e.update(env or {})
    t = time.time()
    try:
        r = subprocess.run([exe, "--driver", driver, "--scenario", scenario,
                            "--seed", str(seed)], capture_output=True, text=True, errors="replace",
                           env=e, timeout=timeout * len(scheds) + 60)
        out, err = r.stdout, r.stderr
    except subprocess.TimeoutExpired as x:
        out = x.stdout.decode(errors="replace") if isinstance(x.stdout, bytes) \
            else (x.stdout or "")
        err = x.stderr.decode(errors="replace") if isinstance(x.stderr, bytes) \
            else (x.stderr or "")
    each = round((time.time() - t) / max(len(scheds), 1), 4)
    outs, errs = split_batch(out), split_batch(err)
    results = []
    for n in range(len(scheds)):
        if n not in outs:
            results.append(None)
            continue
        o, end = outs[n]
        rc = "timeout" if end in (None, "signal 14") else \
            int(end.split()[1]) if end.startswith("exit") else -int(end.split()[1])
        scn, mon = parse(o)
        results.append(Result(rc, scn, mon, o, with_oops_at(exe, rc, errs.get(n, ("", None))[0]),
                              each))
    return results


def failure(res):
    """Why a run failed, in a few words; None if it did not."""
    if res.rc == "timeout":
        return "timed out"
    if isinstance(res.rc, int) and res.rc < 0:
        return "killed by signal %d" % -res.rc
    if not res.scenario:
        return "exit %s without a report" % res.rc
    if res.rc not in (0, 1):
        return "exit %s" % res.rc
    return None


def percentile(samples, p):
    """The p-th percentile (0-100) of @samples, nearest rank, as everywhere
    in the tree (shim/include/shim/stats.h is the C one, runner.c uses it)."""
    s = sorted(samples)
    if not s:
        return None
    return s[min(len(s) - 1, len(s) * p // 100)]
