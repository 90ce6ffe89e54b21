#!/usr/bin/env python3
"""device_search - a device, and module parameters, that take a driver in.

usage: device_search.py BINARY --name NAME [--out FILE] [--runs N]
                        [--budget S] [--quick] [--jobs N] [--force]

A 2.4 driver probes for its board before it registers anything, and a
driver told by MODULE_PARM where its board is (io=, irq=) finds none
without being told.  The generic device (drivers/world/device.h) answers
every port and memory access by policies in one SHIM_DEVICE line; this
searches, within a number of runs and on several CPUs at once, for the
SHIM_DEVICE and SHIM_MODPARAMS lines that get the driver furthest, in
this order: module init returned 0 and registered its driver, the
interrupt handler ran, the most distinct deferred-work call sites
reached (demo/coverage.py finds them in the sources: queue_task,
mark_bh, schedule_task, uses of tq_struct fields...), then the most
lines run.  Nothing in it knows a driver or a chip.

BINARY is the driver's legacy scenario binary (make src-binary, or the
tests' board): `BINARY --list`, `BINARY --params` (module parameters,
"name type" a line), `BINARY --driver NAME --scenario S --seed N`.  It
works best built with COVERAGE=1 (gcov counters in the driver: lines and
call sites) and SEARCH=1 (gcc's trace-cmp in the driver: the constants
it compares the device's answers with); without them it still ranks by
what the device saw (init, the handler).

The search (a coverage-guided one, as AFL's, with Redqueen's
input-to-state step) starts from what a board usually is: it answers a
probe for its interrupt line, and in its handler a register says
something once, then nothing.  Every run is under a systematic schedule
(the same every time) and writes what the device saw
(SHIM_DEVICE_REPORT, even when the run is ended early) and its gcov
counters.  A run that reaches lines or call sites no run reached before,
or ranks best, joins the corpus, and what the device saw in it suggests
the next runs, tried by kind, then best parent first:
  - input-to-state, from any run: a read compared with a constant
    answers that constant (all such registers at once first, then each;
    a register compared with several, them in turn);
  - a probe that found no interrupt line: the device raises one;
  - a port written a register's number, then at once another port,
    read after two numbers at least: a register file behind an index
    port (device.h's index=A:D), whose registers are then addresses as
    any other, suggested for as any other;
  - a search of the PCI bus (world/pci.h): the function it asks for
    (pci=N); a BAR the driver looked at: the other kind of range;
  - module parameters by their name and type: io, port, base -> ISA port
    candidates (the constants the driver compares with in that range,
    then the usual ISA places), irq -> lines, mem -> ISA memory; late, if
    the driver looks for its board by itself (it touched ports unasked);
  - a register read a thousand times (a busy wait): zero, ones, seeded;
  - a register a handler reads in its loop: once seeded, then nothing;
  - colour: addresses read and never written answer seeded values, so
    that a comparison with one of them is recognisable;
  - without trace-cmp: the constants of the driver's instructions;
  - what a user gives (world/user.h, SHIM_IOCTLS): once the module is
    in, a probe of the files it registered (a control device), then the
    commands their handlers compared the probe with, in turn; of a
    call's argument, seeded memory, then the fields the driver compared
    with constants (input-to-state again), a word it took for a pointer;
    a call moved after the others (a start after a download); a string
    parameter: a first value, then the names the driver compared it
    with (strcmp()), then numbers after the name, element by element;
and when none are left, random changes to a corpus entry; the seeds of
sweeps (for a value built from several reads) take one run in
SWEEP_SHARE meanwhile.  Once the module gets further (in, then its
handler run), the search goes on with the scenario that reaches most,
the cheapest of those (the fewest device reads).  The best
configuration is then reduced (each
rule, value, parameter and call dropped if the result stays as good),
run on every scenario, and saved as one line in OUT (SHIM_DEVICE,
SHIM_MODPARAMS and SHIM_IOCTLS), keyed by a hash of the
driver's sources (or of the binary): a later call with the same driver
replays it instead of searching, if it gets the module in; if not, it
searches again, from it and from another random seed.

The same search every time: configurations go in rounds of ROUND, split
over the CPUs, and their outcomes are taken in the round's order; every
run is under the systematic schedule, cut at a number of scheduling
points, not seconds; nothing it decides reads a clock.  So a fresh
search of the same driver reaches the same, on any machine and load
(seconds bound it only against a host too slow to finish, and then it
says so).  A binary built for it (make SEARCH=1) runs a round's share in
one process start from a checkpoint (SHIM_SCHED_BATCH_FILE) and reports
the blocks each run took (demo/blocks.py): no process and no gcov pass
a run.
"""
import argparse
import collections
import concurrent.futures
import hashlib
import heapq
import itertools
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "drivers", "runner"))
sys.dont_write_bytecode = True

import blocks  # noqa: E402
import coverage  # noqa: E402
import runner  # noqa: E402

# bump when what device.c answers for a SHIM_DEVICE line changes meaning:
# a saved line is then searched again
DEVICE_FORMAT = 2
POLICIES = ("readback", "seeded", "ones", "zero")
IRQ_POLICIES = (None, "seeded,ones*", "seeded,zero*", "seeded", "ones", "zero")
ISA_PORTS = (0x220, 0x240, 0x250, 0x260, 0x280, 0x2a0, 0x300, 0x320, 0x340, 0x360,
             0x2e8, 0x2f8, 0x3e8, 0x3f8, 0x100, 0x180, 0x200, 0x210, 0x230)
ISA_MEMORY = (0xd0000, 0xc8000, 0xcc000, 0xd4000, 0xd8000, 0xdc000, 0xe0000)
IRQ_LINES = (5, 3, 4, 7, 9, 10, 11, 12, 15, 2)
# runs under a systematic schedule are the same every time (a timer, a
# worker, run at the same point), so that two configurations compare on
# what they are, not on when the host ran a thread
SCHED = "eager"
# a run's budget: scheduling points (the same on every machine, so that a
# driver waiting for ever for its board is cut at the same place each
# time), and, only against a hung host, seconds
MAX_STEPS = 4000000
RUN_SECONDS = 60
# a run whose driver spins on the device with no scheduling point (a
# handler draining a FIFO whose status register always says more, a
# status register polled without cpu_relax()) is cut at this many
# accesses in a row (shim/control.c: a soft lockup), a count, not after
# RUN_SECONDS of the host's: the same on every machine, and a tenth of
# the sandbox's default, since a search's run spinning that long on one
# register has nothing more to teach
MAX_IO = 1000000
# configurations tried together, their outcomes taken in turn: what the
# search tries next depends on what came back, never on which CPU was
# quicker or how many there are, so that a search is the same every time
ROUND = 16
# runs a search makes at most, and what QUICK allows
RUNS = 3000
RUNS_QUICK = 1200
REDUCE_PASSES = 24  # parts dropped at most, one a pass
SEQUENCE = 16  # reads of a register a learnt sequence covers
PORT_NAMES = re.compile(r"io|port|base|addr", re.I)
MEM_NAMES = re.compile(r"mem|phys|shm|window|ram", re.I)
IRQ_NAMES = re.compile(r"irq|intr?$|interrupt", re.I)
NUMERIC = re.compile(r"^(\d+(-\d+)?)?[bhil]$")


# --- a configuration: the two lines ------------------------------------------

Rule = collections.namedtuple("Rule", "space lo hi ctx policy")


class Config:
    """What a run is given: a SHIM_DEVICE line and a SHIM_MODPARAMS line,
    held as their parts so that a search can change one at a time."""

    def __init__(self, seed=1, default="readback", probe=(), rules=(), params=(),
                 default_irq=None, files=()):
        self.ioctls = ()  # the words of SHIM_IOCTLS (world/user.h), in order
        self.seed = seed
        self.files = tuple(files)  # (index port, data port) of register files
        self.default = default
        self.default_irq = default_irq  # in a handler, if not the default
        self.probe = tuple(probe)
        self.rules = tuple(rules)
        self.params = tuple(params)  # (name, value)
        self.pci = ()  # the FNs of pci= (world/pci.h), in order
        self.input = None  # input=FILE: reads no rule names answered from it

    def device(self):
        words = ["seed=%d" % self.seed]
        if self.default != "readback":
            words.append("default=" + self.default)
        if self.default_irq:
            words.append("default@irq=" + self.default_irq)
        if self.probe:
            words.append("probe=" + ",".join(str(x) for x in self.probe))
        words += ["index=0x%x:0x%x" % f for f in self.files]
        if self.pci:
            words.append("pci=" + ",".join(self.pci))
        if self.input:
            words.append("input=" + self.input)
        for r in self.rules:
            words.append("%s%s=%s" % (where(r.space, r.lo, r.hi), "@" + r.ctx if r.ctx else "",
                                      r.policy))
        return " ".join(words)

    def modparams(self):
        return " ".join("%s=%s" % p for p in self.params)

    def key(self):
        return self.device() + "|" + self.modparams() + "|" + self.ioctls_line()

    def ioctls_line(self):
        return " ".join(self.ioctls)

    def but(self, **kw):
        c = Config(self.seed, self.default, self.probe, self.rules, self.params,
                   self.default_irq, self.files)
        c.pci = self.pci
        c.input = self.input
        for k, v in kw.items():
            setattr(c, k, tuple(v) if isinstance(v, list) else v)
        c.ioctls = tuple(kw.get("ioctls", self.ioctls))
        return c

    def with_rule(self, space, addr, ctx, policy):
        """This, with address @addr answering @policy in @ctx ("" both):
        the rule goes last, where it wins."""
        rules = [r for r in self.rules if (r.space, r.lo, r.hi, r.ctx) != (space, addr, addr, ctx)]
        return self.but(rules=rules + [Rule(space, addr, addr, ctx, policy)])

    def with_param(self, name, value):
        params = [p for p in self.params if p[0] != name]
        return self.but(params=params + ([(name, value)] if value is not None else []))

    def parts(self):
        """Each part a reduction may drop: (what, the config without it)."""
        out = [("ioctl " + w, self.but(ioctls=[x for x in self.ioctls if x != w]))
               for w in self.ioctls]
        out += [("rule " + r.policy, self.but(rules=[x for x in self.rules if x != r]))
                for r in self.rules]
        for r in self.rules:
            vals = r.policy.rstrip("*").split(",")
            for i in range(len(vals) if len(vals) > 1 else 0):
                pol = ",".join(vals[:i] + vals[i + 1:]) + ("*" if r.policy.endswith("*") else "")
                out.append(("value %s of %s" % (vals[i], r.policy), self.but(
                    rules=[x if x != r else r._replace(policy=pol) for x in self.rules])))
        out += [("param " + p[0], self.but(params=[x for x in self.params if x != p]))
                for p in self.params]
        out += [("pci " + f, self.but(pci=[x for x in self.pci if x != f]))
                for f in self.pci]
        if self.probe:
            out.append(("probe", self.but(probe=())))
        if self.default != "readback":
            out.append(("default", self.but(default="readback")))
        if self.default_irq:
            out.append(("default@irq", self.but(default_irq=None)))
        return out

    @staticmethod
    def parse(device, modparams):
        c = Config()
        rules = []
        for w in (device or "").split():
            k, _, v = w.partition("=")
            if k == "seed":
                c.seed = int(v, 0)
            elif k == "default":
                c.default = v
            elif k == "default@irq":
                c.default_irq = v
            elif k == "probe":
                c.probe = tuple(int(x, 0) for x in v.split(","))
            elif k == "index":
                c.files += (tuple(int(x, 0) for x in v.split(":")),)
            elif k == "pci":
                c.pci += tuple(v.split(","))
            elif k == "input":
                c.input = v
            else:
                space = "mem" if k.startswith("mem:") else "io"
                k = k[4:] if space == "mem" else k
                at, _, ctx = k.partition("@")
                data, hash_, at = at.rpartition("#")
                lo, _, hi = at.partition("-")
                lo, hi = int(lo, 0), int(hi or lo, 0)
                if hash_:
                    lo, hi = (FILE | i << 16 | int(data, 0) for i in (lo, hi))
                rules.append(Rule(space, lo, hi, ctx, v))
        c.rules = tuple(rules)
        c.params = tuple(tuple(p.split("=", 1)) for p in (modparams or "").split())
        return c


# Where a search starts, what a board usually is: it has an interrupt
# line, so it answers a probe for it; in its interrupt handler, a
# register the driver never wrote says something once, then nothing
# (all ones, a floating bus: "no interrupt pending" for most boards), so
# that each interrupt is handled and ends
START = Config(probe=(5,), default_irq="seeded,ones*")


FILE = 1 << 24  # addresses past it: registers of a file (device.c's FILE_REG)


def where(space, lo, hi=None):
    """How SHIM_DEVICE names an address, or a range: a port, mem:
    memory, D#I register I of the file behind data port D."""
    hi = lo if hi is None else hi
    if space == "io" and lo >= FILE:
        return "0x%x#0x%x" % (lo & 0xffff, (lo >> 16) & 0xff) + \
            ("-0x%x" % ((hi >> 16) & 0xff) if hi != lo else "")
    return ("mem:" if space == "mem" else "") + "0x%x" % lo + ("-0x%x" % hi if hi != lo else "")


def hexv(v):
    return "0x%x" % v


def answers_line(cfg, rep):
    """@cfg, answering from an input (input=), made a line of rules that
    answers as that input did in the run @rep reports, on either side of
    a conversion: the input's answers per address and reader (the
    report's "answers": the first reads of each, in order), each a rule
    A@reader=V,...,default, past its values the default, as past the
    input's end.  The input's stream, read in the order a side's tasks
    read, could not be replayed on the other side; a reader's reads of
    one address come in the same order on both."""
    rules = list(cfg.rules)
    for space, addr, reader, vals in rep.get("answers", []):
        if vals:
            rules.append(Rule(space, addr, addr, reader,
                              ",".join(hexv(v) for v in vals) + ",default"))
    return cfg.but(input=None, rules=rules)


# --- one run ------------------------------------------------------------------

Outcome = collections.namedtuple(
    "Outcome", "config scenario rc init registered handled lines sites report seconds why")


class Driver:
    """The binary under search and what is known of its sources.

    A binary built for the search (make SEARCH=1: the driver's blocks and
    comparisons instrumented, world/sancov.c) runs many configurations
    in one process start (SHIM_SCHED_BATCH_FILE, shim/host.c), each from
    the same checkpoint, and says the blocks each ran: a run costs what
    the driver does, not a process and a gcov pass.  A binary with gcov's
    counters only (COVERAGE=1) runs one configuration a process."""

    def __init__(self, exe, name, max_steps=MAX_STEPS, sched=SCHED):
        self.exe = os.path.abspath(exe)
        self.name = name
        self.max_steps = max_steps
        self.sched = sched
        self.tmp = tempfile.mkdtemp(prefix="device-search.")
        self.count = itertools.count(1)  # batches, from several threads
        self.nruns = 0  # runs made
        self.lock = threading.Lock()
        self.seconds = 0.0  # spent in runs, summed over the jobs
        r = subprocess.run([self.exe, "--params"], capture_output=True, text=True)
        # "name type" a line; the monitor's JSON is no parameter
        self.params = [tuple(line.split()[:2]) for line in r.stdout.splitlines()
                       if len(line.split()) >= 2 and not line.startswith("{")] \
            if r.returncode == 0 else []
        self.scenarios = [s.name for s in runner.scenarios_of(self.exe, name)]
        if not self.scenarios:
            raise SystemExit("%s: no scenario of driver %s (--list)" % (exe, name))
        self.objdir = self._objdir()
        self.gcno = [os.path.join(self.objdir, f) for f in
                     coverage.files_under(self.objdir, ".gcno")] if self.objdir else []
        self.blocks = blocks.Blocks(self.exe)
        self.files, self.site_lines = self._sources()
        if self.blocks:
            self.blocks = blocks.Blocks(self.exe, self.files)
        self.dictionary = self._dictionary()

    def _objdir(self):
        """Where the driver's objects are (and their gcov notes, if any):
        .drv/ beside a scenario binary (the Makefile's side rules), or the
        drv/ of make src-binary's .k24-NAME/; None if neither has any."""
        here = os.path.dirname(self.exe)
        for d in (coverage.objdir(self.exe),
                  os.path.join(here, ".k24-" + os.path.basename(self.exe), "drv")):
            if os.path.isdir(d) and coverage.files_under(d, ".o"):
                return d
        return None

    def _source_files(self):
        """The driver's own files: from its gcov notes, or from the
        dependencies gcc wrote beside its objects (-MMD), its .c files
        and the headers beside them."""
        if self.gcno:
            jobs = [(i, os.path.join(self.tmp, "structure", str(i),
                                     os.path.basename(g)[:-5] + ".gcda"), g)
                    for i, g in enumerate(self.gcno)]
            files, code = set(), collections.defaultdict(set)
            for docs in coverage.gcov(jobs).values():
                for doc in docs:
                    for f in doc["files"]:
                        files.add(os.path.abspath(f["file"]))
                        code[os.path.abspath(f["file"])] |= {x["line_number"]
                                                             for x in f["lines"]}
            return sorted(f for f in files if os.path.exists(f)), code
        files = set()
        for d in coverage.files_under(self.objdir, ".d") if self.objdir else []:
            with open(os.path.join(self.objdir, d), errors="replace") as fh:
                deps = fh.read().replace("\\\n", " ").split()
            srcs = [x for x in deps if x.endswith(".c")]
            if not srcs:
                continue
            here = os.path.dirname(os.path.abspath(srcs[0]))
            files |= {os.path.abspath(x) for x in deps if x.endswith((".c", ".h")) and
                      os.path.dirname(os.path.abspath(x)) == here}
        code = collections.defaultdict(set)
        for lines in self.blocks.lines.values():
            for f, n in lines:
                code[f].add(n)
        return sorted(f for f in files if os.path.exists(f)), code

    def _sources(self):
        """The driver's sources and, per file, the lines holding a
        deferred-work call site: {file: {line: what}}."""
        if not self.gcno and not self.blocks:
            return [], {}
        files, code = self._source_files()
        api = coverage.Api()
        texts = {}
        # the sites of the .c files, as the demo's coverage counts them
        # for the files given (a header beside them is in the key only)
        for f in [f for f in files if f.endswith(".c")] if not self.gcno else files:
            with open(f, errors="replace") as fh:
                texts[f] = coverage.strip(fh.read())
        objects = set().union(*[api.objects(t) for t in texts.values()]) if texts else set()
        # a site on a line with no code (a declaration) is never reached
        sites = {f: {n: w for n, w in coverage.scan_sites(t, api, objects) if n in code[f]}
                 for f, t in texts.items()}
        return files, {f: s for f, s in sites.items() if s}

    def _dictionary(self):
        """The constants the driver's code compares with, from its objects'
        instructions: what a binary built without trace-cmp offers instead
        of what it compared each read with."""
        objs = [os.path.join(self.objdir, f) for f in
                coverage.files_under(self.objdir, ".o")] if self.objdir else []
        if not objs or not shutil.which("objdump"):
            return []
        r = subprocess.run(["objdump", "-d", "--no-show-raw-insn"] + objs,
                           capture_output=True, text=True)
        vals = [int(x, 16) for x in re.findall(r"\bcmp[bwlq]?\s+\$0x([0-9a-f]+),", r.stdout)]
        return list(dict.fromkeys(v for v in vals if v not in (0, 0xff, 0xffff)))

    def nsites(self):
        return sum(len(s) for s in self.site_lines.values())

    def key(self):
        """What a saved search is valid for: the driver's sources, or the
        binary when they are not known, and the device's format; by the
        files' names and texts, not where they are (another checkout of
        the same driver replays the line)."""
        h = hashlib.sha256(("device format %d\n" % DEVICE_FORMAT).encode())
        files = list(self.files or [self.exe])
        for f in files:
            with open(f, "rb") as fh:
                text = fh.read()
            h.update(os.path.basename(f).encode() + b"\0" + text)
            # the headers beside it it includes, which gcov may not list
            for inc in re.findall(rb'^\s*#\s*include\s*"([^"]+)"', text, re.M):
                path = os.path.join(os.path.dirname(f), inc.decode(errors="replace"))
                if self.files and path not in files and os.path.isfile(path):
                    files.append(path)
        return "sha256:" + h.hexdigest()[:32]

    def run(self, cfg, scenario):
        """Run @scenario under @cfg: an Outcome."""
        return self.run_many([cfg], scenario)[0]

    def run_many(self, cfgs, scenario):
        """Run @scenario under each of @cfgs: their Outcomes, in order."""
        d = os.path.join(self.tmp, "run%d" % next(self.count))
        os.makedirs(d)
        with self.lock:
            self.nruns += len(cfgs)
        try:
            if self.blocks:
                return self._batch(cfgs, scenario, d)
            return [self._one(cfg, scenario, os.path.join(d, str(i)))
                    for i, cfg in enumerate(cfgs)]
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def _env(self):
        e = dict(os.environ, SHIM_LOGLEVEL="0", SHIM_SCHED_MAX_STEPS=str(self.max_steps),
                 SHIM_SCHED_MAX_IO=str(MAX_IO))
        for k in ("SHIM_SCHED", "SHIM_SCHED_LOG", "SHIM_SCHED_BATCH", "SHIM_DEVICE",
                  "SHIM_MODPARAMS", "SHIM_IOCTLS", "GCOV_PREFIX"):
            e.pop(k, None)
        return e

    def _batch(self, cfgs, scenario, d):
        """Every configuration of @cfgs in one process: each from the
        checkpoint, under the systematic schedule (or a child forked
        there, for free runs), its device report apart."""
        spec = self.sched or "free"
        with open(os.path.join(d, "batch"), "w") as f:
            for i, cfg in enumerate(cfgs):
                f.write("%s\tSHIM_DEVICE=%s\tSHIM_MODPARAMS=%s\tSHIM_IOCTLS=%s"
                        "\tSHIM_DEVICE_REPORT=%s\n" % (
                            spec, cfg.device(), cfg.modparams(), cfg.ioctls_line(),
                            os.path.join(d, "%d.json" % i)))
        e = self._env()
        e.update(SHIM_SCHED_BATCH_FILE=os.path.join(d, "batch"),
                 SHIM_SCHED_BATCH_TIMEOUT=str(RUN_SECONDS))
        t = time.time()
        try:
            p = subprocess.run([self.exe, "--driver", self.name, "--scenario", scenario,
                                "--seed", "1"], capture_output=True, text=True,
                               errors="replace", env=e,
                               timeout=RUN_SECONDS * len(cfgs) + 30)
            out, err = p.stdout, p.stderr
        except subprocess.TimeoutExpired as x:
            out = x.stdout.decode(errors="replace") if isinstance(x.stdout, bytes) \
                else (x.stdout or "")
            err = ""
        secs = time.time() - t
        self.seconds += secs
        outs, errs = runner.split_batch(out), runner.split_batch(err)
        res = []
        for i, cfg in enumerate(cfgs):
            o, end = outs.get(i, ("", None))
            rc = "timeout" if end in (None, "signal 14") else \
                int(end.split()[1]) if end.startswith("exit") else -int(end.split()[1])
            scn, mon = runner.parse(o)
            r = runner.Result(rc, scn, mon, o, errs.get(i, ("", None))[0],
                              round(secs / len(cfgs), 4))
            rep = self._report(os.path.join(d, "%d.json" % i))
            res.append(self._outcome(cfg, scenario, r, rep,
                                     self.blocks.reached(rep.get("blocks"))))
        return res

    def _one(self, cfg, scenario, d):
        """One run, as runner.run() makes it, with gcov's counters apart
        (GCOV_PREFIX); past the time allowed asked to end (SIGTERM), so
        that it still says what the device saw and what the driver ran
        (device.c), then killed."""
        os.makedirs(d)
        report = os.path.join(d, "device.json")
        strip = len([p for p in (self.objdir or "").split(os.sep) if p])
        e = self._env()
        if self.sched:
            e["SHIM_SCHED"] = self.sched
        e.update(GCOV_PREFIX=d, GCOV_PREFIX_STRIP=str(strip), SHIM_DEVICE=cfg.device(),
                 SHIM_MODPARAMS=cfg.modparams(), SHIM_IOCTLS=cfg.ioctls_line(),
                 SHIM_DEVICE_REPORT=report)
        t = time.time()
        p = subprocess.Popen([self.exe, "--driver", self.name, "--scenario", scenario,
                              "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, errors="replace", env=e)
        try:
            out, err = p.communicate(timeout=RUN_SECONDS)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            p.terminate()
            try:
                out, err = p.communicate(timeout=2)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
            rc = "timeout"
        secs = time.time() - t
        self.seconds += secs
        scn, mon = runner.parse(out)
        r = runner.Result(rc, scn, mon, out, err, round(secs, 3))
        return self._outcome(cfg, scenario, r, self._report(report), self._lines(d))

    @staticmethod
    def _report(path):
        try:
            with open(path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def _outcome(self, cfg, scenario, res, rep, lines):
        obs = (res.scenario or {}).get("observables") or {}
        init, registered = module_state(obs, rep.get("irq") or {})
        if obs.get("init_failed"):
            # a family of modules: the one whose init failed
            rep = dict(rep, init_failed=obs["init_failed"])
        irq = rep.get("irq") or {}
        handled = sum(n for _, n in irq.get("handled", []))
        sites = {(f, n) for f, s in self.site_lines.items() for n in s if (f, n) in lines}
        return Outcome(cfg, scenario, res.rc, init, registered, handled, lines, sites, rep,
                       res.seconds, runner.failure(res))

    def _lines(self, d):
        gcda = coverage.files_under(d, ".gcda")
        if not gcda:
            return frozenset()
        jobs = [(0, os.path.join(d, g), os.path.join(self.objdir, g[:-5] + ".gcno"))
                for g in gcda]
        out = set()
        for docs in coverage.gcov(jobs).values():
            for doc in docs:
                for f in doc["files"]:
                    p = os.path.abspath(f["file"])
                    out |= {(p, x["line_number"]) for x in f["lines"] if x["count"]}
        return frozenset(out)

    def run_parallel(self, pool, cfgs, scenario, jobs):
        """@cfgs split over @jobs batches at once in @pool: their Outcomes,
        in the order of @cfgs."""
        n = max(1, -(-len(cfgs) // max(jobs, 1)))
        parts = [cfgs[i:i + n] for i in range(0, len(cfgs), n)]
        return [o for outs in pool.map(lambda p: self.run_many(p, scenario), parts)
                for o in outs]

    def everywhere(self, pool, cfg, jobs):
        """@cfg on every scenario: their outcomes, in the scenarios' order."""
        return list(pool.map(lambda s: self.run(cfg, s), self.scenarios))

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def module_state(obs, irq):
    """(init_module()'s return or None, whether the module registered a
    driver), from a run's observables: the tty exerciser's init_module and
    loaded_drivers (what the tty core holds once it is loaded), or a
    runner's init and registered (a count).  With neither, a line asked
    for stands for both."""
    init = obs.get("init_module", obs.get("init"))
    if not isinstance(init, int):
        init = 0 if irq.get("requested") else None
    if "loaded_drivers" in obs:
        return init, bool(obs["loaded_drivers"])
    if "registered" in obs:
        return init, bool(obs["registered"])
    return init, bool(irq.get("requested"))


def score(o):
    """The objective, in order: the module is in (init returned 0 and it
    registered), its handler ran, call sites reached, lines run.  A run
    that did not end well (a BUG, an oops, a livelock, a hang) is no run
    to compare drivers with: it counts only for having got the module in
    (a driver that oopses at its first open is further on than one that
    finds no board, and its other scenarios may end well) and for what
    it reached."""
    entered = o.init == 0 and o.registered
    inside = entered and not o.why
    return (int(inside), int(inside and o.handled > 0), int(entered), len(o.sites),
            len(o.lines))


# --- what a run suggests ------------------------------------------------------

def param_values(name, ptype, consts):
    """The values worth trying for module parameter @name of 2.4 type
    @ptype: by what its name says, first the constants the driver compared
    with that fit."""
    if not NUMERIC.match(ptype):
        return []
    if IRQ_NAMES.search(name):
        return [str(x) for x in IRQ_LINES]
    if MEM_NAMES.search(name):
        seen = [c for c in consts if 0xa0000 <= c < 0x100000 and not c & 0xfff]
        return [hexv(x) for x in dict.fromkeys(seen + list(ISA_MEMORY))]
    if PORT_NAMES.search(name):
        seen = [c for c in consts if 0x100 <= c <= 0x3ff and not c & 7]
        return [hexv(x) for x in dict.fromkeys(seen + list(ISA_PORTS))]
    return []


def compared(rep, met=False):
    """{(space, address, context): {n: [constants]}} of a report: those
    the n-th read did not give (or, if @met, the one it gave)."""
    out = collections.defaultdict(lambda: collections.defaultdict(list))
    for space, addr, ctx, n, val, k in rep.get("compares", []):
        if (val == k) == met and k not in out[(space, addr, ctx)][n]:
            out[(space, addr, ctx)][n].append(k)
    return out


# what a run suggests, in the order tried: what its reads were compared
# with, a probe line, module parameters (late, for a driver that looks
# for its board by itself), a polled register, a handler's loop, colour,
# a register kept where it gives what is wanted and seeded after, the
# driver's constants, and seeds for those kept registers
LEARNT, PROBE, INDEX, PARAM, POLLED, LOOPED, COLOUR, KEEP, PARAM_LATE, DICTIONARY, SWEEP = \
    range(11)
SWEEP_SEEDS = 256  # seeds tried for a register kept, then seeded
SWEEP_SHARE = 3  # one run in this many is a seed of a sweep, if any wait
INDEX_VALUES = 2  # registers a data port is read as, at least
PARAM_TRIES = 2  # parents a module parameter's value is tried on


class Memo:
    """What the hints of earlier runs leave for the next ones."""

    def __init__(self):
        self.compares = set()  # (space, address, context, constant) learnt
        self.usual = {}  # (space, address, context): constants met at most reads
        self.params = collections.Counter()  # (name, value, level): parents tried on
        self.self_probing = None  # the driver touches ports unasked


def pci_hints(cfg, rep):
    """A board on the PCI bus (world/pci.h): for each search of the bus
    the driver made, the function it asks for (pci=N); for each BAR the
    driver looked at of a function there, the other kind of range (an
    I/O range where it wanted memory, or the reverse), each alone, then
    all at once."""
    pci = rep.get("pci") or {}
    out = []
    there = {f.split("/")[0].split("@")[0] for f in cfg.pci}
    for n in range(1, len(pci.get("searches", [])) + 1):
        if str(n) not in there and len(cfg.pci) < 8:
            out.append((PROBE, cfg.but(pci=cfg.pci + (str(n),))))
    flip = {"i": "m", "m": "i", "-": "i"}
    for fn in pci.get("functions", []):
        if len(fn) < 6 or not fn[4] or fn[5] >= len(cfg.pci):
            continue
        spec = cfg.pci[fn[5]]
        head, _, bars = spec.partition("@")
        bars = (bars or "iiiiii").ljust(6, "-")
        used = [b for b in range(6) if fn[4] >> b & 1]
        for group in [[b] for b in used] + ([used] if len(used) > 1 else []):
            new = "".join(flip[c] if b in group else c for b, c in enumerate(bars))
            fns = list(cfg.pci)
            fns[fn[5]] = head + "@" + new.rstrip("-")
            out.append((PROBE, cfg.but(pci=fns)))
    return out


def hints(o, drv, memo):
    """The configurations a run suggests: [(rank, config)]."""
    cfg, rep = o.config, o.report
    out, learnt = pci_hints(cfg, rep), []
    counts = {(s_, a, ctx): n for s_, a, ctx, n in rep.get("reads", [])}
    # module parameters the run did not have: each value on a few
    # parents of each level the module reached (a parameter is worth what
    # the device makes of it: where a board was found, the first board)
    given = {p[0] for p in cfg.params}
    consts = rep.get("consts", []) + drv.dictionary
    rank = PARAM_LATE if memo.self_probing else PARAM
    level = score(o)[:2]
    # a board's place comes with its line: a place given with every
    # line parameter still unset, set to the line the device raises
    line = str(cfg.probe[0] if cfg.probe else IRQ_LINES[0])
    lines = [n for n, t in drv.params if IRQ_NAMES.search(n) and NUMERIC.match(t) and
             n not in given]
    values = dict(cfg.params)
    looked = {hexv(w[1]) for w in rep.get("writes", []) if w[1] < FILE}
    for name, ptype in drv.params:
        # a parameter given: its other values (a board takes some lines
        # and not others), on a few parents too
        for v in param_values(name, ptype,
                              consts + [w[1] for w in rep.get("writes", []) if w[1] < FILE]):
            if v == values.get(name):
                continue
            if memo.params[(name, v, level)] < PARAM_TRIES:
                memo.params[(name, v, level)] += 1
                out.append((rank, cfg.with_param(name, v)))
                if name in lines or not lines or name in given:
                    continue
                # where the driver looked by itself: with each line
                for each in [line] + ([str(x) for x in IRQ_LINES if str(x) != line]
                                      if v in looked else []):
                    both = cfg.with_param(name, v)
                    for n in lines:
                        both = both.with_param(n, each)
                    out.append((rank, both))
    # input-to-state: a read compared with a constant gives that constant
    # (in the handler last: the module must be in first); first all of
    # them at once, each register its most frequent one (a driver probing
    # several boards compares each board's register with the same one)
    every = cfg
    for (space, addr, ctx), per_n in sorted(compared(rep).items(),
                                            key=lambda kv: kv[0][2] != "task"):
        # a constant met at every read of it is what the driver wants of
        # the register; one met once may be a coincidence
        times = collections.Counter(k for n in per_n for k in per_n[n])
        ks = sorted(dict.fromkeys(k for n in sorted(per_n) for k in per_n[n]),
                    key=lambda k: -times[k])
        fresh = [k for k in ks if (space, addr, ctx, k) not in memo.compares]
        memo.compares |= {(space, addr, ctx, k) for k in ks}
        if not fresh:
            continue
        c = "" if ctx == "task" and not any(r.ctx for r in cfg.rules if r.lo == addr) else ctx
        every = every.with_rule(space, addr, c, hexv(ks[0]))
        # in turn: those met at every other read at least, here or in
        # earlier runs (a register set to one of them compares with the
        # others only until one matches)
        known = memo.usual.setdefault((space, addr, ctx), [])
        known += [k for k in ks if times[k] * 2 >= len(per_n) and k not in known]
        if 1 < len(known) <= 8:
            learnt.append(cfg.with_rule(space, addr, c, ",".join(hexv(k) for k in known) + "*"))
        learnt += [cfg.with_rule(space, addr, c, hexv(k)) for k in ks[:8]]
        # one constant per read, not always the same: a sequence (its
        # first reads: past them a register is polled, not read in turn)
        seq = [per_n[n][0] for n in sorted(per_n) if n < SEQUENCE]
        if all(len(v) == 1 for v in per_n.values()) and len(set(seq)) > 1:
            learnt.append(cfg.with_rule(space, addr, c, ",".join(hexv(k) for k in seq)))
    if len(learnt) > 1 and every.key() != cfg.key():
        learnt.insert(0, every)
    # colour: what is read and never written answers seeded values
    written = {(w[0], w[1]) for w in rep.get("writes", [])}
    ruled = {(r.space, r.lo, r.ctx) for r in cfg.rules}
    plain = sorted({(s, a, ctx) for s, a, ctx, _ in rep.get("reads", [])
                    if (s, a) not in written and (s, a, ctx) not in ruled and
                    (s, a, "") not in ruled})
    if plain and cfg.default != "seeded":
        colour = cfg
        for s, a, ctx in plain[:64]:
            colour = colour.with_rule(s, a, ctx, "seeded")
        out.append((COLOUR, colour))
        out += [(COLOUR, cfg.with_rule(s, a, ctx, "seeded")) for s, a, ctx in plain[:16]]
        # a value built from several reads (an identity read bit by bit)
        # is no comparison's constant: seeds to try
        out += [(SWEEP, colour.but(seed=seed)) for seed in range(2, 2 + SWEEP_SEEDS)]
    # a register read over and over: the driver waits for it to change
    polled = sorted(((n, s, a, ctx) for s, a, ctx, n in rep.get("reads", []) if n >= 1000),
                    reverse=True)
    for _, s, a, ctx in polled[:3]:
        out += [(POLLED, cfg.with_rule(s, a, ctx, p)) for p in ("zero", "ones", "seeded")
                if (s, a, ctx) not in ruled]
    # a register a handler reads over and over (its loop's "anything
    # more?"): something to say, then nothing, at each interrupt
    handled = sum(n for _, n in (rep.get("irq") or {}).get("handled", []))
    looped = sorted(((n, s, a) for s, a, ctx, n in rep.get("reads", [])
                     if ctx == "irq" and n > max(handled, 1)), reverse=True)
    for _, s, a in looped[:3]:
        out += [(LOOPED, cfg.with_rule(s, a, "irq", p))
                for p in ("seeded,ones*", "seeded,zero*")]
    # a register that gives what its first reads are compared with (a
    # scratch register read back), then is read more without a word:
    # those reads kept, the next seeded, and seeds to try (a value built
    # from several reads, bit by bit, is no comparison's constant)
    kept = []
    for (space, addr, ctx), per_n in sorted(compared(rep, met=True).items()):
        last = -1
        while last + 1 in per_n:
            last += 1  # the reads from the first that gave what was wanted
        if last < 0 or (space, addr, ctx) in ruled or (space, addr, "") in ruled or \
                counts.get((space, addr, ctx), 0) <= last + 1 or last + 1 >= SEQUENCE:
            continue
        pol = ",".join([cfg.default] * (last + 1) + ["seeded"])
        kept.append((space, addr, ctx, pol))
    # all such registers at once first (each board of a driver probing
    # several is one more chance a seed gives)
    for group in ([kept] if len(kept) > 1 else []) + [[k] for k in kept]:
        c = cfg
        for space, addr, ctx, pol in group:
            c = c.with_rule(space, addr, ctx, pol)
        out.append((KEEP, c))
        out += [(SWEEP, c.but(seed=seed)) for seed in range(2, 2 + SWEEP_SEEDS)]
    # no trace-cmp in the driver: the constants of its code, at each
    # address it reads and never writes
    if "consts" in rep and not rep["consts"] and drv.dictionary:
        words = [hexv(v) for v in drv.dictionary[:16] if v <= 0xffff]
        for s, a, ctx in plain[:16]:
            out += [(DICTIONARY, cfg.with_rule(s, a, ctx, w)) for w in words]
            if len(words) > 1:
                out.append((DICTIONARY, cfg.with_rule(s, a, ctx, ",".join(words) + "*")))
    # a port written a byte (a register's number), then at once another
    # port accessed, most times it is written, and read after several
    # numbers (a probe that failed may have read two registers only):
    # an index port and its data port (device.c's "pairs"); for each
    # index port the data port it most often leads to, a port in one
    # file only
    writes = {w[1]: w[2] for w in rep.get("writes", []) if w[0] == "io"}
    taken = {p for f in cfg.files for p in f}
    pairs = []
    for a, d, times, _, _, read_after in sorted(rep.get("pairs", []), key=lambda p: -p[2]):
        if read_after >= INDEX_VALUES and times * 2 >= writes.get(a, times) and \
                not {a, d} & taken:
            pairs.append((a, d))
            taken |= {a, d}
    # all at once first (a driver probing several boards)
    if len(pairs) > 1:
        out.append((INDEX, cfg.but(files=cfg.files + tuple(pairs[:8 - len(cfg.files)]))))
    out += [(INDEX, cfg.but(files=cfg.files + (p,))) for p in pairs if len(cfg.files) < 8]
    # a probe that found no line: the device raises one (another, if it
    # raised one: a line taken by another handler is no candidate)
    if any(p <= 0 for p in (rep.get("irq") or {}).get("probes", [])):
        now = IRQ_LINES.index(cfg.probe[0]) + 1 if cfg.probe and cfg.probe[0] in IRQ_LINES \
            else 0
        out += [(PROBE, cfg.but(probe=(line,))) for line in IRQ_LINES[now:now + 1]]
    out += user_hints(o, drv, memo)
    return [(LEARNT, c) for c in learnt] + out


# --- what a user gives: ioctls and string parameters (world/user.h) -------------

STRING = re.compile(r"^(\d+)?(-(\d+))?s$")
PLACEHOLDER = "x"  # a string parameter's first value: what is it compared with?
CALL = re.compile(r"^(\d+\.\d+):([0-9a-fx]+)(?:=(.*))?$")


def split_elements(value):
    """A parameter's value, element by element (double quotes hold
    commas, as shim/module.c reads them)."""
    out, cur, quoted = [], "", False
    for ch in value:
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    return out + [cur]


def element(text):
    return '"%s"' % text if "," in text else text


def numbers_for(consts):
    """What a number in a string parameter may be: an ISA port (the
    driver's constants in that range first), a line, ISA memory."""
    ports = [c for c in consts if 0x100 <= c <= 0x3ff and not c & 7]
    return [hexv(x) for x in dict.fromkeys(ports + list(ISA_PORTS))] + \
        [str(x) for x in IRQ_LINES] + [hexv(x) for x in ISA_MEMORY]


def with_arg_field(arg, off, field):
    """Call argument @arg (world/user.h's FILL[,OFF:W=V...]) with the
    field at byte @off made @field ("W=V", or "p"), on seeded memory."""
    words = (arg or "zero").split(",")
    fields = {int(w.split(":")[0]): w.split(":", 1)[1] for w in words[1:]}
    fields[off] = field
    return ",".join(["seeded"] + ["%d:%s" % (o, fields[o]) for o in sorted(fields)])


def user_hints(o, drv, memo):
    """What the run suggests of what a user gives the driver: once the
    module is in, a probe of the files it registered; the commands a
    probed file's handler compared the probe with, all in turn (both
    orders) and each alone; for a call's argument, seeded memory, then
    each field the driver compared with a constant holding it (or one
    either side of it, or 0: a bound's), a number the argument itself
    was compared with, a pointer where the driver copied from a word of
    it; for a string parameter, a first value, then each string the
    driver compared it with, and numbers after it, element by element.
    The probe and the commands once per level the module reached, a
    parameter's value PARAM_TRIES times; what depends on the calls made
    before (the order of the calls, a call's argument) of each run, since
    each order of the calls meets the driver in another state.  All but
    the commands are INDEX, a board's setting: tried before the numeric
    parameters, and what their runs suggest is tried even if they reached
    nothing new (a port alone, its line not given yet, reaches nothing
    more than no port)."""
    cfg, rep = o.config, o.report
    level = score(o)[:2]
    out = []

    def once(rank, key, c, tries=1):
        key = ("user",) + key + (level,)  # apart from the numeric parameters'
        if memo.params[key] < tries:
            memo.params[key] += 1
            out.append((rank, c))

    # in, even if the run then failed: a driver that oopses on a port
    # refused for want of its firmware is in, and its loader is the cure
    if score(o)[2] and "probe" not in cfg.ioctls and "ioctls" in rep:
        once(LEARNT, ("probe",), cfg.but(ioctls=("probe",) + cfg.ioctls))
    ioctls = rep.get("ioctls") or {}
    calls = [CALL.match(w) for w in cfg.ioctls]
    byfile = collections.defaultdict(list)
    for f, cmd in ioctls.get("cmds", []):
        byfile[f].append(cmd)
    for f, cmds in sorted(byfile.items()):
        cmds = sorted(set(cmds))
        # the probe has said what it had to: calls without it (a probe of
        # a port whose driver oopses on a refused open would end them all)
        keep = [w for w, m in zip(cfg.ioctls, calls) if m and m.group(1) != f]
        for group in [cmds, cmds[::-1]] + ([[c] for c in cmds] if len(cmds) > 1 else []):
            once(LEARNT, ("calls", f) + tuple(group),
                 cfg.but(ioctls=keep + ["%s:%s" % (f, hexv(c)) for c in group]))
    # a call that needs another made first (a start after the download):
    # each moved last
    made = [w for w, m in zip(cfg.ioctls, calls) if m]
    for w in made[:-1]:
        once(INDEX, ("last", cfg.key(), w),
             cfg.but(ioctls=[x for x in cfg.ioctls if x != w] + [w]))
    for i, m in enumerate(calls):
        if not m:
            continue
        f, cmd, arg = m.group(1), int(m.group(2), 0), m.group(3)

        def at(new):
            return cfg.but(ioctls=cfg.ioctls[:i] + ("%s:%s=%s" % (f, hexv(cmd), new),) +
                           cfg.ioctls[i + 1:])
        if not arg or arg == "zero":
            once(INDEX, ("seeded", cfg.key(), i), at("seeded"))
        for g, c, k in ioctls.get("values", []):
            if (g, c) == (f, cmd):
                once(INDEX, ("value", cfg.key(), i, k), at(hexv(k)))
        if arg and arg[0].isdigit():
            continue
        for g, c, off, width, v, k in ioctls.get("fields", []):
            if (g, c) != (f, cmd) or v == k:
                continue
            for want in dict.fromkeys((k, k - 1, k + 1, 0)):
                if 0 <= want < 1 << (8 * width):
                    once(INDEX, ("field", cfg.key(), i, off, want),
                         at(with_arg_field(arg, off, "%d=%s" % (width, hexv(want)))))
        for g, c, off, n in ioctls.get("pointers", []):
            if (g, c) == (f, cmd):
                once(INDEX, ("pointer", cfg.key(), i, off),
                     at(with_arg_field(arg, off, "p")))
    # string parameters: a first value, then what the driver compared it with
    values = dict(cfg.params)
    found = collections.defaultdict(list)
    for name, index, text in rep.get("strings", []):
        found[(name, index)].append(text)
    consts = rep.get("consts", []) + drv.dictionary
    for name, ptype in drv.params:
        m = STRING.match(ptype)
        if not m:
            continue
        most = int(m.group(3) or m.group(1) or 1)
        if name not in values:
            once(INDEX, ("string", name), cfg.with_param(name, PLACEHOLDER))
            continue
        elems = split_elements(values[name])
        for index in range(min(len(elems), most)):
            for text in found.get((name, index), []):
                if text != elems[index]:
                    new = elems[:index] + [element(text)] + elems[index + 1:]
                    once(INDEX, ("string", name, index, text),
                         cfg.with_param(name, ",".join(new)), PARAM_TRIES)
        # a name taken: the numbers after it, the next element first
        if elems[0] == PLACEHOLDER:
            continue
        for index in range(1, min(len(elems) + 1, most)):
            for v in numbers_for(consts):
                if index < len(elems) and v == elems[index]:
                    continue
                new = (elems + [v])[:index + 1] if index == len(elems) else \
                    elems[:index] + [v] + elems[index + 1:]
                once(INDEX, ("string", name, index, v),
                     cfg.with_param(name, ",".join(new)), PARAM_TRIES)
    return out


def havoc(cfg, rep, rng, drv):
    """A random change or three of @cfg."""
    reads = [(s, a, ctx) for s, a, ctx, _ in rep.get("reads", [])] or [("io", 0x80, "task")]
    consts = rep.get("consts", []) + drv.dictionary or [0]
    comp = compared(rep)
    for _ in range(rng.randint(1, 3)):
        what = rng.randrange(7)
        if what == 0:
            cfg = cfg.but(seed=rng.randrange(1, 1 << 16))
        elif what == 1:
            if rng.random() < 0.5:
                cfg = cfg.but(default=rng.choice(POLICIES))
            else:
                cfg = cfg.but(default_irq=rng.choice(IRQ_POLICIES))
        elif what in (2, 3):
            s, a, ctx = rng.choice(reads)
            ks = list(dict.fromkeys(k for v in comp.get((s, a, ctx), {}).values() for k in v))
            pol = rng.choice(POLICIES + (hexv(rng.choice(consts) & 0xff),) +
                             ((",".join(hexv(k) for k in ks) + "*",) if ks else ()))
            cfg = cfg.with_rule(s, a, rng.choice((ctx, "")), pol)
        elif what == 4 and cfg.rules:
            r = rng.choice(cfg.rules)
            cfg = cfg.but(rules=[x for x in cfg.rules if x != r])
        elif what == 5:
            cfg = cfg.but(probe=rng.choice([()] + [(x,) for x in IRQ_LINES]))
        elif drv.params:
            name, ptype = rng.choice(drv.params)
            vals = param_values(name, ptype, consts)
            if vals:
                cfg = cfg.with_param(name, rng.choice(vals + [None]))
    return cfg


# --- the search ---------------------------------------------------------------

class Search:
    def __init__(self, drv, jobs, seed=1, say=print, verbose=False, clock=time.time):
        self.drv = drv
        self.verbose = verbose
        self.jobs = jobs
        self.rng = random.Random(seed)
        self.say = say
        self.tried = set()
        self.corpus = []
        self.best = None
        self.lines, self.sites = set(), set()
        self.memo = Memo()
        self.queue = []  # a heap of (priority..., order, config)
        self.sweeps = []  # the same, of the seeds of sweeps
        self.picks = 0
        # what kind of suggestion made each configuration: a register file
        # found changes the device, and its run suggests more even if it
        # reached nothing new itself
        self.kind = {}
        self.seq = 0
        self.runs = 0
        self.scenario = drv.scenarios[0]
        self.level = (0, 0)  # how far the module got when the scenario was chosen
        # seconds, as the caller counts them: the host's, or (bench/engines)
        # the CPU the search took
        self.clock = clock
        self.t0 = clock()
        self.cut = False  # out of time before the runs were done

    def consider(self, o):
        """Take a run's outcome in: the corpus, the hints."""
        self.runs += 1
        new = bool((o.lines - self.lines) or (o.sites - self.sites))
        better = self.best is None or score(o) > score(self.best)
        self.lines |= o.lines
        self.sites |= o.sites
        if better:
            self.best = o
            self.say("  %4d runs, %4.1f s: %s" % (
                self.runs, self.clock() - self.t0, describe(o, self.drv)))
            if self.verbose:
                self.say("      SHIM_DEVICE=%s SHIM_MODPARAMS=%s" % (
                    shlex.quote(o.config.device()), shlex.quote(o.config.modparams())))
        # what a comparison taught first, from any run; then the
        # suggestions of the runs that got furthest (in, handler, call
        # sites), by kind, of those that reached something new before as
        # good ones that did not (AFL favours what found new coverage),
        # of more lines first; the rest only from runs that did
        sc = score(o)
        if self.memo.self_probing is None:
            # the first run has no parameters: does the driver look for
            # its board by itself, or wait to be told where it is?
            self.memo.self_probing = bool(o.report.get("reads") or o.report.get("writes"))
        for rank, c in hints(o, self.drv, self.memo):
            if c.key() not in self.tried and (rank == LEARNT or new or better or
                                              self.kind.get(o.config.key()) == INDEX):
                self.seq += 1
                self.kind.setdefault(c.key(), rank)
                heapq.heappush(self.sweeps if rank == SWEEP else self.queue,
                               (rank != LEARNT,) + tuple(-x for x in sc[:4]) +
                               (rank, -new, -sc[4], self.seq, c))
        if new or better:
            self.corpus.append(o)

    def next_config(self):
        # each seed of a sweep is a small chance (a value the driver
        # builds from several reads, bit by bit): the seeds take their
        # share of the runs, not only what every other suggestion leaves
        self.picks += 1
        queues = (self.queue, self.sweeps)
        for q in queues[::-1] if self.picks % SWEEP_SHARE == 0 else queues:
            while q:
                c = heapq.heappop(q)[-1]
                if c.key() not in self.tried:
                    return c
        for _ in range(100):
            parent = self.best if self.rng.random() < 0.5 or not self.corpus else \
                self.rng.choice(self.corpus)
            c = havoc(parent.config, parent.report, self.rng, self.drv)
            if c.key() not in self.tried:
                return c
        return None

    def done(self):
        """Nothing left to gain: in, the handler ran, every site reached."""
        b = self.best
        return b is not None and score(b)[:2] == (1, 1) and \
            0 < self.drv.nsites() == len(b.sites)

    def rescope(self, pool):
        """Each time the module gets further (in, then its handler run),
        search on from the scenario that reaches the most of the driver
        (its sites, then its lines) under the best configuration so far,
        the cheapest of those (cost())."""
        outs = self.drv.everywhere(pool, self.best.config, self.jobs)
        top = max(outs, key=lambda o: (score(o), -cost(o)))
        self.scenario = top.scenario
        self.level = score(self.best)[:2]
        for o in outs:
            self.lines |= o.lines
            self.sites |= o.sites
        self.say("  %4d runs, %4.1f s: searching with scenario %s" % (
            self.runs, self.clock() - self.t0, top.scenario))
        # scores of two scenarios do not compare: it starts over
        self.best = None
        self.consider(top)

    def run(self, starts, runs, deadline):
        """Search from each of @starts, until @runs runs (or, against a
        hung host only, @deadline): the best outcome.  In rounds of ROUND
        configurations, split over the jobs, their outcomes taken in the
        order the round had them."""
        todo = list(starts)
        self.tried |= {c.key() for c in starts}
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            while self.runs < runs and not self.done():
                # the first round is the starts alone: nothing suggests more yet
                while self.best and len(todo) < min(ROUND, runs - self.runs):
                    c = self.next_config()
                    if c is None:
                        break
                    self.tried.add(c.key())
                    todo.append(c)
                if not todo:
                    break
                for o in self.drv.run_parallel(pool, todo, self.scenario, self.jobs):
                    self.consider(o)
                    if self.best and score(self.best)[:2] > self.level and \
                            len(self.drv.scenarios) > 1:
                        self.rescope(pool)
                todo = []
                if self.clock() > deadline:
                    self.say("  %4d runs, %4.1f s: out of time, the search cut short "
                             "(another machine may search further)" % (
                                 self.runs, self.clock() - self.t0))
                    self.cut = True
                    break
        return self.best


def cost(o):
    """What a run cost, the same on every machine: the device's reads (a
    driver busy-waiting on a register, a handler looping), not seconds."""
    return sum(r[3] for r in o.report.get("reads", []))


def describe(o, drv):
    s = score(o)
    what = "module in" if s[0] else ("init returned %s" % o.init if o.init is not None
                                     else "init not reached")
    if s[0]:
        what += ", handler %s" % ("ran %d times" % o.handled if o.handled else "never ran")
    return "%s, %d of %d call sites, %d lines (%s)" % (
        what, len(o.sites), drv.nsites(), len(o.lines), o.why or "rc %s" % o.rc)


def reduce(drv, best, jobs, say, passes=REDUCE_PASSES):
    """Drop each part of the best configuration the result does not need,
    the first in order that keeps it as good, a pass at a time."""
    cur = best
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for _ in range(passes):
            parts = cur.config.parts()
            outs = drv.run_parallel(pool, [c for _, c in parts], cur.scenario, jobs)
            for o in outs:
                if score(o)[:3] >= score(cur)[:3] and o.sites >= cur.sites and \
                        len(o.lines) >= len(cur.lines):
                    cur = o
                    break
            else:
                break
    return cur


def unprobed(drv, best):
    """The probe is the search's question, not a loader's: left out of
    the line found unless what it reaches needs it (the module in, its
    handler, a call site), not for the lines of a handler's default."""
    if "probe" not in best.config.ioctls:
        return best
    o = drv.run(best.config.but(ioctls=[w for w in best.config.ioctls if w != "probe"]),
                best.scenario)
    return o if score(o)[:3] >= score(best)[:3] and o.sites >= best.sites else best


def everywhere(drv, cfg, jobs):
    """@cfg on every scenario: their outcomes."""
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        return drv.everywhere(pool, cfg, jobs)


# --- saved, replayed -------------------------------------------------------

def load(path):
    """(key, device, modparams, searches) saved in @path, or None."""
    try:
        with open(path) as f:
            words = shlex.split(f.readline())
    except (OSError, ValueError):
        return None
    kv = dict(w.split("=", 1) for w in words if "=" in w)
    if "key" not in kv or "SHIM_DEVICE" not in kv:
        return None
    searches = int(kv["searches"]) if kv.get("searches", "").isdigit() else 1
    return kv["key"], kv["SHIM_DEVICE"], kv.get("SHIM_MODPARAMS", ""), searches


def saved_ioctls(path):
    """The SHIM_IOCTLS words saved in @path beside its device line."""
    try:
        with open(path) as f:
            words = shlex.split(f.readline())
    except (OSError, ValueError):
        return []
    kv = dict(w.split("=", 1) for w in words if "=" in w)
    return kv.get("SHIM_IOCTLS", "").split()


def save(path, key, cfg, searches=1):
    """One line: what it is valid for, how many searches made it (a
    search again starts from another random seed), the device, the
    module parameters and the ioctls."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("key=%s searches=%d SHIM_DEVICE=%s SHIM_MODPARAMS=%s SHIM_IOCTLS=%s\n" % (
            key, searches, shlex.quote(cfg.device()), shlex.quote(cfg.modparams()),
            shlex.quote(cfg.ioctls_line())))


def replay_line(cfg, exe, name, scenario, sched=None):
    return "%sSHIM_DEVICE=%s SHIM_MODPARAMS=%s %s%s --driver %s --scenario %s --seed 1" % (
        "SHIM_SCHED=%s " % sched if sched else "",
        shlex.quote(cfg.device()), shlex.quote(cfg.modparams()),
        "SHIM_IOCTLS=%s " % shlex.quote(cfg.ioctls_line()) if cfg.ioctls else "",
        shlex.quote(os.path.relpath(exe, runner.TOP) if exe.startswith(runner.TOP + os.sep)
                    else exe), name, scenario)


def search(legacy_exe, name, out_file, budget=600, quick=False, jobs=2, force=False,
           say=print, verbose=False, runs=None, shown=None, clock=time.time):
    """Find (or replay) the device and module parameters for driver @name
    of @legacy_exe; save them in @out_file.  At most @runs runs (RUNS, or
    RUNS_QUICK with @quick), the same search on every machine; @budget
    seconds only against a host too slow or loaded to finish them, said
    if it cut the search short (seconds of @clock: the host's, or the
    CPU's, for a benchmark).  Returns {"device": the SHIM_DEVICE line,
    "modparams": the SHIM_MODPARAMS line, "found": what they reach,
    "line": the line that replays a run with them (of @shown, the binary
    a user runs, if given)}."""
    runs = runs or (RUNS_QUICK if quick else RUNS)
    t0, c0 = time.time(), clock()
    drv = Driver(legacy_exe, name)
    try:
        key = drv.key()
        saved = None if force else load(out_file)
        if saved and saved[0] != key:
            saved = None
        replayed, outs, searches, cut = False, None, saved[3] if saved else 0, False
        if saved:
            # replayed only where it gets the module in: a line that did
            # not (a search that ran out of time, a device or a search
            # since improved) is searched again, from where it got
            best = Config.parse(saved[1], saved[2]).but(ioctls=saved_ioctls(out_file))
            outs = everywhere(drv, best, jobs)
            replayed = score(max(outs, key=score))[0] > 0
            if replayed:
                say("device search: %s unchanged since the search saved in %s: replayed" % (
                    name, os.path.relpath(out_file)))
            else:
                say("device search: the line saved in %s does not get %s in: searching again"
                    % (os.path.relpath(out_file), name))
        if not replayed:
            say("device search: %s, %d module parameters, %d call sites, at most %d runs "
                "on %d CPUs" % (name, len(drv.params), drv.nsites(), runs, jobs))
            first = drv.run(START, drv.scenarios[0])
            if first.why and drv.sched:
                drv.sched = None
                if not drv.run(START, drv.scenarios[0]).why:
                    say("device search: %s under SHIM_SCHED=%s: %s; free runs instead" % (
                        name, SCHED, first.why))
                else:
                    drv.sched = SCHED
            s = Search(drv, jobs, seed=searches + 1, say=say, verbose=verbose, clock=clock)
            found = s.run([START] + ([best] if saved else []), runs, c0 + budget)
            cut = s.cut
            found = reduce(drv, found, jobs, say)
            found = unprobed(drv, found)
            best = found.config
            save(out_file, key, best, searches + 1)
            outs = everywhere(drv, best, jobs)
        nruns = drv.nruns
        top = max(outs, key=score)
        sites = set().union(*[o.sites for o in outs])
        lines = set().union(*[o.lines for o in outs])
        res = {
            "device": best.device(), "modparams": best.modparams(),
            "ioctls": best.ioctls_line(),
            "found": {
                "init": top.init, "registered": top.registered,
                "init_failed": top.report.get("init_failed"),
                "handler_ran": any(o.handled for o in outs),
                "irq_lines": sorted({x for o in outs for x, _ in
                                     (o.report.get("irq") or {}).get("requested", [])}),
                "sites": sorted("%s:%d %s" % (os.path.basename(f), n, drv.site_lines[f][n])
                                for f, n in sites),
                "sites_total": drv.nsites(), "lines": len(lines),
                "scenarios": {o.scenario: describe(o, drv) for o in outs},
                "runs": nruns, "cut": cut,
                "seconds": round(time.time() - t0, 1), "replayed": replayed},
            "scenario": top.scenario, "sched": drv.sched,
            "line": replay_line(best, shown or drv.exe, name, top.scenario, drv.sched)}
        f = res["found"]
        say("device search: %s: %s; handler %s; %d of %d call sites; %d runs in %.0f s" % (
            name, "module in" if score(top)[0] else "module NOT in (init %s)" % top.init,
            "ran" if f["handler_ran"] else "never ran", len(sites), drv.nsites(),
            f["runs"], f["seconds"]))
        say("replay: " + res["line"])
        return res
    finally:
        drv.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--name", required=True, help="the driver's name in the binary")
    ap.add_argument("--out", help="where to save the line (default: beside the binary)")
    ap.add_argument("--runs", type=int, help="runs at most (default %d, --quick %d)" % (
        RUNS, RUNS_QUICK))
    ap.add_argument("--budget", type=float, default=600,
                    help="seconds at most, against a slow host (default 600)")
    ap.add_argument("--quick", action="store_true", help="at most %d runs" % RUNS_QUICK)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--force", action="store_true", help="search even if a line is saved")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--verbose", action="store_true",
                    help="print the configuration of each better run")
    a = ap.parse_args()
    out = a.out or os.path.join(os.path.dirname(os.path.abspath(a.binary)), "device")
    res = search(a.binary, a.name, out, a.budget, a.quick, a.jobs, a.force,
                 verbose=a.verbose, runs=a.runs)
    if a.json:
        print(json.dumps(res, indent=1))
    return 0 if res["found"]["registered"] else 1


if __name__ == "__main__":
    sys.exit(main())
