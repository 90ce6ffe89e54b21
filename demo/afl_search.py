#!/usr/bin/env python3
"""afl_search - AFL++ steering the generic device, as Fuzzware and P2IM do.

usage: afl_search.py SEARCH_BINARY AFL_BINARY --name NAME [--scenario S]
                     [--device LINE] [--modparams LINE] [--execs N]
                     [--seconds S] [--seed N] [--out FILE] [--json]

The hand search (demo/device_search.py) writes SHIM_DEVICE lines; here
the device answers every read no rule of a base line names from an
input (SHIM_DEVICE's input=, drivers/include/world/device.h) and
afl-fuzz (Debian's afl++, with CmpLog: Redqueen's input-to-state, -c 0)
makes the inputs, on AFL_BINARY (make src-binary SEARCH=1 AFL=1: the
driver's blocks feed AFL's edge map, its comparisons CmpLog), under the
systematic schedule the hand search runs under, so that an input gives
the same run every time.

The base line is the hand search's START (a board that answers a probe
for its line, its handler's registers saying something once) or the
line it found (--device, --modparams), and afl-fuzz runs one scenario
(--scenario: the hand search's, or the binary's first).  Its seed is the
input that replays the base line's own run (the report's "stream"),
padded with what a floating bus reads (0xff) for the reads the driver
makes once it gets further.  Then every entry of AFL's queue is run
with SEARCH_BINARY (the hand search's own runs: its blocks, call sites,
module in, handler ran) and the best, ranked as the hand search ranks
(device_search.score()), is made a line of rules (answers_line()): the
input's answers per address and reader, which give both sides of a
comparison the same answers however their tasks interleave, as the
stream could not; the line is run again and kept only if it reaches
what the input reached.

The same every time, where afl-fuzz allows: -s fixes its random seed
(and with it AFL++ leaves out what it would decide from the time a run
takes), it stops after --execs executions, not seconds, a run is cut
at a number of scheduling points, and its queue is taken in order;
--seconds (or a CPU budget, for bench/engines) only bounds it against
a host too slow, and it says so.
"""
import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "drivers", "runner"))
sys.dont_write_bytecode = True

import device_search  # noqa: E402
from device_search import Config, score  # noqa: E402

AFL_FUZZ = "afl-fuzz"
AFL_RT = "/usr/lib/afl/afl-compiler-rt.o"
# reads a seed leaves room for past its run's own: what a floating bus
# answers, for the driver's reads once the fuzzer gets it further
PAD = 256
EXECS = 20000  # a search's executions at most
# where AFL++ goes on from the hand search's line: executions for each
# run the hand search made.  An execution costs about a fifth of a hand
# search's run (bench/engines: a fork from AFL's fork server against a
# batch's run, its report and its Python), so that AFL++ gets about the
# CPU the hand search took, counted in runs: the same every time
AFL_PER_RUN = 5
SECONDS = 600  # and its seconds, against a slow host only
AFL_MIN_SECONDS = 60  # where it goes on: the hand search's seconds, this at least
RUN_MS = 20000  # a run's time limit: runs end at their scheduling points first
MEASURE = 16  # queue entries run in one process start
# after IDLE_AFTER seconds, an afl-fuzz (and its runs) that used less
# than IDLE_SHARE of a CPU is waiting, not searching
IDLE_AFTER = 30
IDLE_SHARE = 0.2


def available():
    """Why AFL++ cannot run here, or None."""
    if not shutil.which(AFL_FUZZ):
        return "afl-fuzz is not installed (Debian package afl++)"
    if not os.path.exists(AFL_RT):
        return "%s is missing (Debian package afl++)" % AFL_RT
    return None


def cpu_of_tree(pid):
    """CPU seconds of process @pid and of every process under it,
    alive or ended and waited for."""
    tick = os.sysconf("SC_CLK_TCK")
    stats = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                text = f.read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        stats[int(d)] = (int(fields[1]), sum(int(x) for x in fields[11:15]))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, (0, 0))[1]
        todo += [c for c, (pp, _) in stats.items() if pp == p]
    return total / tick


class Fuzz:
    """One afl-fuzz search of driver @name's @scenario under @base."""

    def __init__(self, drv, afl_exe, scenario, base, say=print):
        self.drv = drv
        self.afl_exe = os.path.abspath(afl_exe)
        self.scenario = scenario
        self.base = base
        self.say = say
        self.tmp = tempfile.mkdtemp(prefix="afl-search.", dir=drv.tmp)
        self.cpu = 0.0  # afl-fuzz's and its runs' CPU seconds
        self.stats = {}
        self.cut = False
        self.asleep = False  # cut for runs that waited, not computed

    def seed(self):
        """The input that replays the base line's run, padded; and the
        run's outcome."""
        empty = os.path.join(self.tmp, "empty")
        open(empty, "w").close()
        o = self.drv.run(self.base.but(input=empty), self.scenario)
        stream = bytes.fromhex(o.report.get("stream", ""))
        return stream + b"\xff" * PAD, o

    def env(self):
        # an input is the device's answers: trimming one would shift
        # every answer after the bytes it drops, and leave no room for
        # the reads of a run that gets further
        e = {k: v for k, v in self.drv._env().items() if not k.startswith("AFL_")}
        e.update(SHIM_SCHED=self.drv.sched or "free",
                 SHIM_DEVICE=self.base.but(input="-").device(),
                 SHIM_MODPARAMS=self.base.modparams(),
                 AFL_SKIP_CPUFREQ="1", AFL_NO_UI="1", AFL_NO_AFFINITY="1",
                 AFL_DISABLE_TRIM="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
                 AFL_NO_STARTUP_CALIBRATION="1")
        return e

    def run(self, seeds, execs=EXECS, seconds=SECONDS, seed=1, cpu_budget=None):
        """afl-fuzz from @seeds (bytes each) until @execs executions (or
        @seconds, or @cpu_budget CPU seconds): the queue's files, in order."""
        src, out = os.path.join(self.tmp, "in"), os.path.join(self.tmp, "out")
        os.makedirs(src)
        for i, s in enumerate(seeds):
            with open(os.path.join(src, "seed%d" % i), "wb") as f:
                f.write(s)
        cmd = [AFL_FUZZ, "-i", src, "-o", out, "-c", "0", "-s", str(seed),
               "-t", str(RUN_MS), "-m", "none", "-V", str(int(seconds))]
        if execs:
            cmd += ["-E", str(execs)]
        cmd += ["--", self.afl_exe, "--driver", self.drv.name, "--scenario",
                self.scenario, "--seed", "1"]
        log = open(os.path.join(self.tmp, "afl.log"), "w")
        t0 = time.time()
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env(),
                             start_new_session=True)
        used = 0.0
        while p.poll() is None:
            # a look at every process of the host: not too often, it is
            # CPU the runs do not get
            time.sleep(2)
            try:
                used = max(used, cpu_of_tree(p.pid))
            except OSError:
                pass
            waited = time.time() - t0
            # runs that wait instead of computing (a driver's timers in
            # real time, a forked run missing a thread) make a search
            # that learns nothing however long it goes: stop it
            asleep = waited >= IDLE_AFTER and used < IDLE_SHARE * waited
            if asleep:
                self.asleep = True
            if (cpu_budget and used >= cpu_budget) or asleep:
                self.cut = True
                p.send_signal(signal.SIGINT)
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        log.close()
        self.cpu = used
        self.seconds = time.time() - t0
        self.stats = self._stats(os.path.join(out, "default", "fuzzer_stats"))
        if not self.stats:
            with open(os.path.join(self.tmp, "afl.log"), errors="replace") as f:
                tail = f.read()[-2000:]
            raise RuntimeError("afl-fuzz did not run (rc %s):\n%s" % (p.returncode, tail))
        if execs and int(self.stats.get("execs_done", 0)) < execs and not self.cut:
            self.cut = True
        # afl-fuzz stops after -E executions at its next look at the
        # time, a few more here or there: what it found past them is not
        # taken, so that the queue is the same every time
        queue = os.path.join(out, "default", "queue")
        return [os.path.join(queue, f) for f in sorted(os.listdir(queue))
                if f.startswith("id:") and (not execs or field(f, "execs") <= execs)]

    @staticmethod
    def _stats(path):
        try:
            with open(path) as f:
                return dict((k.strip(), v.strip()) for k, _, v in
                            (line.partition(":") for line in f) if k.strip())
        except OSError:
            return {}

    def measure(self, queue):
        """Each entry of @queue run with the search binary: Outcomes."""
        outs = []
        for i in range(0, len(queue), MEASURE):
            cfgs = [self.base.but(input=q) for q in queue[i:i + MEASURE]]
            outs += self.drv.run_many(cfgs, self.scenario)
        return outs


def field(path, name):
    """A number in an AFL queue entry's name (id:N,...,time:MS,execs:N)."""
    for part in os.path.basename(path).split(","):
        if part.startswith(name + ":") and part[len(name) + 1:].isdigit():
            return int(part[len(name) + 1:])
    return 0


def when(path):
    """An AFL queue entry's time, in seconds from the start."""
    return field(path, "time") / 1000.0


def fuzz(search_exe, afl_exe, name, scenario=None, base=None, execs=EXECS,
         seconds=SECONDS, seed=1, cpu_budget=None, say=print, drv=None):
    """AFL++ on driver @name from @base (START by default) for @execs
    executions: the best queue entry's line of rules, and what it
    reaches everywhere, as device_search.search() says it:
    {"device", "modparams", "found": {...}, "line"}, and "afl": what
    afl-fuzz did (its executions, CPU seconds, queue, when the best came)."""
    why = available()
    if why:
        raise RuntimeError(why)
    own = drv is None
    drv = drv or device_search.Driver(search_exe, name)
    t0 = time.time()
    try:
        base = base or device_search.START
        scenario = scenario or drv.scenarios[0]
        f = Fuzz(drv, afl_exe, scenario, base, say)
        first, start = f.seed()
        say("afl search: %s, scenario %s, from %s: %s" % (
            name, scenario, "START" if not base.rules and base.probe == device_search.START.probe
            and base.default_irq == device_search.START.default_irq else "the line given",
            device_search.describe(start, drv)))
        queue = f.run([first], execs=execs, seconds=seconds, seed=seed,
                      cpu_budget=cpu_budget)
        execs_done = int(f.stats.get("execs_done", 0))
        say("afl search: %d executions, %d queue entries, %.0f CPU s%s" % (
            execs_done, len(queue), f.cpu, " (cut short)" if f.cut else ""))
        outs = f.measure(queue)
        # the best first, by the hand search's ranking; the earliest of
        # equals (AFL's queue is in the order it found them)
        ranked = sorted(range(len(outs)), key=lambda i: (score(outs[i]), -i), reverse=True)
        line, kept, checked = None, None, 0
        for i in ranked[:8]:
            o = outs[i]
            cand = device_search.answers_line(o.config, o.report)
            again = drv.run(cand, scenario)
            checked += 1
            if score(again)[:4] >= score(o)[:4] and again.sites >= o.sites:
                line, kept = cand, (i, o, again)
                break
            say("afl search: the line of queue entry %d does not reach what its input "
                "did (%s against %s): the next" % (
                    i, device_search.describe(again, drv), device_search.describe(o, drv)))
        if line is None:
            line, kept = base, (None, start, start)
        i, o, again = kept
        outs_all = device_search.everywhere(drv, line, 1)
        top = max(outs_all, key=score)
        sites = set().union(*[x.sites for x in outs_all])
        lines = set().union(*[x.lines for x in outs_all])
        found = {
            "init": top.init, "registered": top.registered,
            "handler_ran": any(x.handled for x in outs_all),
            "sites": sorted("%s:%d %s" % (os.path.basename(fn), n, drv.site_lines[fn][n])
                            for fn, n in sites),
            "sites_total": drv.nsites(), "lines": len(lines),
            "scenarios": {x.scenario: device_search.describe(x, drv) for x in outs_all},
            "runs": drv.nruns, "cut": f.cut, "asleep": f.asleep,
            "seconds": round(time.time() - t0, 1),
            "replayed": False}
        res = {"device": line.device(), "modparams": line.modparams(), "found": found,
               "scenario": top.scenario,
               "line": device_search.replay_line(line, drv.exe, name, top.scenario,
                                                 drv.sched),
               "afl": {"execs": execs_done, "cpu": round(f.cpu, 1),
                       "wall": round(f.seconds, 1), "queue": len(queue),
                       "best": i, "best_at": when(queue[i]) if i is not None else 0.0,
                       "best_sites": len(o.sites), "checked": checked,
                       "scenario": scenario}}
        say("afl search: %s: %s; handler %s; %d of %d call sites; best entry %s at %.0f s" % (
            name, "module in" if score(top)[0] else "module NOT in (init %s)" % top.init,
            "ran" if found["handler_ran"] else "never ran", len(sites), drv.nsites(),
            i, res["afl"]["best_at"]))
        say("replay: " + res["line"])
        return res
    finally:
        if own:
            drv.close()


def reach(found):
    """What a search's line reaches, to compare two: module in, handler
    ran, call sites, lines."""
    return (int(found["init"] == 0 and bool(found["registered"])), int(found["handler_ran"]),
            len(found["sites"]), found["lines"])


def short(res):
    """Whether the hand search's line ends below full reach."""
    f = res["found"]
    return reach(f)[:2] != (1, 1) or len(f["sites"]) < f["sites_total"]


def go_on(search_exe, afl_exe, name, res, out_file, say=print, shown=None,
          execs=None, cpu_budget=None, seconds=SECONDS):
    """Where the hand search's line @res ends below full reach, AFL++
    from that line (its rules kept, the device answering the rest from
    AFL's input) for @execs executions (AFL_PER_RUN for each run the
    hand search made); the better line is saved in @out_file and
    returned as device_search.search() returns one.  @seconds bound it
    against a host too slow for its executions, said if they cut it; and
    so does the time the hand search took (AFL_MIN_SECONDS at least): a
    driver whose runs cost AFL++ more than the hand search (flipper.c's
    under fork: 50 ms each) gets the same time, not five times the runs."""
    execs = execs or AFL_PER_RUN * res["found"]["runs"]
    seconds = min(seconds, max(AFL_MIN_SECONDS, res["found"].get("seconds") or 0))
    drv = device_search.Driver(search_exe, name)
    try:
        found = Config.parse(res["device"], res["modparams"])
        say("device search: %s ends below full reach: AFL++ (CmpLog) goes on from its "
            "line, %d executions" % (name, execs))
        other = fuzz(search_exe, afl_exe, name, res.get("scenario"), found, execs=execs,
                     seconds=seconds, say=say, drv=drv, cpu_budget=cpu_budget)
        if other["found"].get("asleep"):
            say("device search: AFL++ stopped: its runs waited rather than ran (under "
                "%d%% of a CPU after %d s)" % (IDLE_SHARE * 100, IDLE_AFTER))
        elif other["found"]["cut"]:
            say("device search: AFL++ was cut short by the time allowed "
                "(another machine may search further)")
        if reach(other["found"]) <= reach(res["found"]):
            o = other["found"]
            say("device search: AFL++ reached no further (%d of %d call sites): the "
                "hand search's line stays" % (len(o["sites"]), o["sites_total"]))
            res["afl"] = other["afl"]
            return res
        saved = device_search.load(out_file)
        line = Config.parse(other["device"], other["modparams"])
        device_search.save(out_file, drv.key(), line, saved[3] if saved else 1)
        f = other["found"]
        f["runs"] += res["found"]["runs"]
        other["line"] = device_search.replay_line(line, shown or drv.exe, name,
                                                  other["scenario"], drv.sched)
        say("device search: %s: AFL++ took it further: %s; handler %s; %d of %d call "
            "sites" % (name, "module in" if reach(f)[0] else "module NOT in",
                       "ran" if f["handler_ran"] else "never ran", len(f["sites"]),
                       f["sites_total"]))
        say("replay: " + other["line"])
        return other
    finally:
        drv.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("search_binary", help="make src-binary SEARCH=1")
    ap.add_argument("afl_binary", help="make src-binary SEARCH=1 AFL=1")
    ap.add_argument("--name", required=True, help="the driver's name in the binaries")
    ap.add_argument("--scenario", help="the scenario fuzzed (default: the binary's first)")
    ap.add_argument("--device", help="the base SHIM_DEVICE line (default: START)")
    ap.add_argument("--modparams", default="", help="its SHIM_MODPARAMS line")
    ap.add_argument("--execs", type=int, default=EXECS,
                    help="executions at most (default %d)" % EXECS)
    ap.add_argument("--seconds", type=float, default=SECONDS,
                    help="seconds at most, against a slow host (default %d)" % SECONDS)
    ap.add_argument("--seed", type=int, default=1, help="afl-fuzz -s")
    ap.add_argument("--out", help="save the line found here (device_search's format)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    base = Config.parse(a.device, a.modparams) if a.device else \
        device_search.START.but(params=Config.parse("", a.modparams).params)
    try:
        res = fuzz(a.search_binary, a.afl_binary, a.name, a.scenario, base, a.execs,
                   a.seconds, a.seed)
    except RuntimeError as e:
        print("afl search: %s" % e, file=sys.stderr)
        return 2
    if a.out:
        drv = device_search.Driver(a.search_binary, a.name)
        device_search.save(a.out, drv.key(), Config.parse(res["device"], res["modparams"]))
        drv.close()
        print("afl search: saved in %s" % shlex.quote(a.out))
    if a.json:
        print(json.dumps(res, indent=1))
    return 0 if res["found"]["registered"] else 1


if __name__ == "__main__":
    sys.exit(main())
