"""judge - one place where runs become a verdict: refinement, not equality.

The legacy side is the reference.  Every run of a scenario, whatever made
it (a free run, a systematic or pct schedule, a run made again, a
witness search), is taken in here as a set of features: each observable
the scenario reported, each problem the run showed (compare.run_problems,
said as compare.alike says it), each work routine that ran or did not,
how often and from where each was asked to be queued (single-threaded
scenarios, and the counts a concurrent one calls exact), whether it
queued itself again.  A feature's value the converted side showed in a
run is a difference only when no run of the legacy side, at the same
size, showed it too; a number that varies over the legacy side's own
runs is shown when it lies within what they produced (a count of bytes
a close cut short, say; how often a routine was asked to be queued, from
each context, as a free run's timing batched its requests or not).  A
behaviour of the legacy side is never the conversion's: a legacy failure
is the driver's own, named with where it showed.

What the runs made so far do not show the judge asks for: legacy
schedules aimed at the converted run's (its pct seed, the systematic
ones, more seeds), at its size (witness_specs); the demo runs them and
hands them in; what is still unshown then is DIFFERENT, with how many
legacy schedules were tried and the converted replay line.

What is not a feature stays with the rules of compare.py, which the
judge takes as they decide them: where a routine runs (a queue, a
bottom half: declared moves), whether it ran beside itself, what each
flush waits for; and the race check's word (race.py), which asks the
legacy side's race check for a witness the same way.
"""
import collections
import json

import compare

FULL, EXPLORE = "full", "explore"
# legacy schedules a witness search may make per scenario, seed and size
WITNESS_RUNS = {FULL: 12, EXPLORE: 48}


def bucket(size, seed):
    """Runs compare with runs of the same size and seed: the same input."""
    return (size, seed)


class Witness(collections.namedtuple("Witness", "label replay")):
    """Where a side showed a value first: the run's label ("seed 1",
    "schedule pct:16:3:900") and the line that replays it, if any."""


def _value(v):
    return json.dumps(v, sort_keys=True)


def features(res, concurrent, exact=(), controlled=False):
    """{feature: value} of one run (a runner.Result).  Under a controlled
    schedule (@controlled) what the time a call took decides is the
    schedule's, not a feature: the observables the scenario names timed
    (how many bytes a device streamed while a close waited), and how
    often each routine was asked to be queued (an interrupt more or less
    while a process waited)."""
    out = {}
    monitored = res.monitor is not None
    for p in compare.run_problems("converted", res, monitored):
        out["problem " + compare.alike(p)] = True
        # the problem as this run said it, numbers and all, to be shown
        out.setdefault("said", {})["problem " + compare.alike(p)] = \
            p[len("converted: "):]
    scn = res.scenario
    if scn and not gave_up(res):
        timed = set(scn.get("timed") or []) if controlled else set()
        for k, v in (scn.get("observables") or {}).items():
            if k not in timed:
                out["observable " + k] = v
    if res.monitor and not cut_short(res):
        routines = (res.monitor.get("routines") or {})
        out["ran"] = sorted(routines)
        for name, r in routines.items():
            if not controlled and (not concurrent or name in exact):
                out["asked " + name] = compare.fmt_counts(r.get("asked_from") or {})
            out["requeues " + name] = bool(r.get("asked_by_itself"))
    return out


def gave_up(res):
    """Did the exerciser give up on a process that never returned?  What
    the run observed is then where the schedule had got to when the clock
    ran out, not where the scenario ends: no observable to compare."""
    return bool(res.scenario) and \
        (res.scenario.get("invariants") or {}).get("no_process_hangs") is False


def cut_short(res):
    """Did the run end before its scenario did (a crash, a livelock cut at
    its scheduling points, a process given up on)?  Which routines it had
    run by then, and how often asked, is where it had got to: the run is
    held to its failure, not to those."""
    return res.scenario is None or not isinstance(res.rc, int) or res.rc < 0 or \
        gave_up(res)


# what says memory was corrupted: where it is found out is where the heap
# or a list happened to be looked at next, which any interleaving moves
CORRUPTION = ("malloc(): ", "free(): ", "double free", "corrupted", "list_del corruption",
              "list_add corruption", "Slab corruption", "slab error")


def corruption(problem):
    """Is this problem (as alike() says it) memory found corrupted?"""
    return any(w in problem for w in CORRUPTION)


# runs of one side, at one size, each giving its own value of a
# non-numeric observable, that make it one the side never repeats
UNREPEATED = 3


class Evidence:
    """What one side of one scenario showed, at one size, over its runs:
    {feature: {value: first Witness}}, the range of each number, and
    which routines each run ran."""

    def __init__(self):
        self.values = collections.defaultdict(dict)
        self.numbers = {}  # feature: (low, its Witness, high, its Witness)
        self.ran = {}  # frozenset of the routines a run ran: its first Witness
        self.asked = collections.defaultdict(list)  # "asked R": [({ctx: n}, Witness)]
        self.runs = 0

    def add(self, feats, witness):
        self.runs += 1
        for k, v in feats.items():
            if k == "ran":
                self.ran.setdefault(frozenset(v), witness)
                continue
            self.values[k].setdefault(_value(v), witness)
            if k.startswith("asked "):
                self.asked[k].append((asked_counts(v), witness))
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                rng = self.numbers.get(k)
                if rng is None:
                    self.numbers[k] = (v, witness, v, witness)
                else:
                    a, wa, b, wb = rng
                    self.numbers[k] = (min(a, v), wa if a <= v else witness,
                                       max(b, v), wb if b >= v else witness)

    def routines(self):
        return set().union(*self.ran) if self.ran else set()

    def shows(self, k, v):
        """A Witness that a run of this side showed feature @k with value
        @v, or None.  "runs ROUTINE": a run that ran it, or did not."""
        if k.startswith("runs "):
            name = k[len("runs "):]
            return next((w for s, w in self.ran.items() if (name in s) == v), None)
        got = self.values.get(k, {}).get(_value(v))
        if got:
            return got
        if k.startswith("problem ") and v and corruption(k):
            # memory corrupted: the same bug, wherever it was found out
            other = next((x for x in self.values if x.startswith("problem ") and
                          corruption(x)), None)
            if other:
                w = next(iter(self.values[other].values()))
                return Witness("%s (memory corrupted there too: %s)" % (
                    w.label, other[len("problem "):]), w.replay)
        rng = self.numbers.get(k)
        if rng and isinstance(v, (int, float)) and not isinstance(v, bool) and \
                rng[0] < rng[2] and rng[0] <= v <= rng[2]:
            return Witness("within what its runs produced (%s under %s to %s under %s)" % (
                rng[0], rng[1].label, rng[2], rng[3].label), rng[1].replay)
        if k.startswith("asked ") and self.asked.get(k):
            got = self.asked_within(k, v)
            if got:
                return got
        seen = self.values.get(k, {})
        if k.startswith("observable ") and not isinstance(v, (int, float)) and \
                self.runs >= UNREPEATED and len(seen) == self.runs:
            # a value (a list, a text) no two of this side's own runs
            # agreed on, as an address or a stack's leftovers: no run
            # can witness another's, so it is no behaviour to compare
            w = next(iter(seen.values()))
            return Witness("its own %d runs never gave one value twice (%d values)" % (
                self.runs, len(seen)), w.replay)
        return None

    def asked_within(self, k, v):
        """How often a routine was asked to be queued, from each context,
        is a number as any other: one that varies over this side's own
        runs (pushes a free run's timing batched or not) is shown when,
        from every context, it lies within what those runs produced; a
        context they never asked from, or a count past theirs, is not."""
        runs = self.asked[k]
        want = asked_counts(v)
        ctxs = set(want).union(*(c for c, _ in runs))
        spans = {}
        for ctx in ctxs:
            ns = [c.get(ctx, 0) for c, _ in runs]
            lo, hi = min(ns), max(ns)
            if not lo <= want.get(ctx, 0) <= hi:
                return None
            if lo < hi:
                spans[ctx] = "%s %d to %d" % (ctx, lo, hi)
        if not spans:
            return None
        return Witness("within what its runs produced (%s, over %d runs)" % (
            ", ".join(spans[c] for c in sorted(spans)), len(runs)), runs[0][1].replay)


def asked_counts(text):
    """{context: count} of compare.fmt_counts()'s "process 6, timer 2"."""
    out = {}
    for part in text.split(", ") if text and text != "none" else ():
        ctx, _, n = part.rpartition(" ")
        if n.isdigit():
            out[ctx] = int(n)
    return out


class Claim:
    """A feature's value the converted side showed that the legacy side
    has not (yet): where it showed first, and what witness was found."""

    def __init__(self, bucket, key, value, text, witness):
        self.bucket = bucket
        self.key = key
        self.value = value
        self.text = text
        self.converted = witness  # where the converted side showed it
        self.legacy = None  # the legacy side's witness, once found

    def said(self, tried):
        """How the claim reads in a verdict: with its witness, or with how
        many legacy schedules were tried."""
        where = self.converted.label
        if self.legacy:
            return "%s (converted, %s): the legacy side shows it too, %s%s" % (
                self.text, where, self.legacy.label,
                "; replay: " + self.legacy.replay if self.legacy.replay else "")
        return "%s (converted, %s); no legacy run of %d shows it%s" % (
            self.text, where, tried,
            "; replay: " + self.converted.replay if self.converted.replay else "")


def describe(key, value, legacy):
    """A feature's value as a reason reads: what the converted side
    showed, and what the legacy side showed instead."""
    if key.startswith("problem "):
        return key[len("problem "):]
    seen = sorted(legacy.values.get(key, {}))
    other = ("the legacy side showed %s" % ", ".join(x[:60] for x in seen[:3]) +
             (" ..." if len(seen) > 3 else "")) if seen else "the legacy side never reported it"
    if key.startswith("observable "):
        return "%s is %s; %s" % (key[len("observable "):], _value(value)[:80], other)
    if key.startswith("asked "):
        return "%s was asked to be queued from %s; %s" % (key[len("asked "):], value, other)
    if key.startswith("requeues "):
        return "%s %s itself again from its own run; %s" % (
            key[len("requeues "):], "queues" if value else "never queues", other)
    if key.startswith("runs "):
        return "%s %s; %s" % (key[len("runs "):], "ran" if value else "never ran",
                              "the legacy side's runs all ran it" if not value
                              else "no legacy run ran it")
    return "%s: %s; %s" % (key, _value(value), other)


class Scenario:
    """One scenario's evidence on both sides, and what the converted side
    showed that the legacy side has not."""

    def __init__(self, scn):
        self.scn = scn
        self.sides = {"legacy": collections.defaultdict(Evidence),
                      "converted": collections.defaultdict(Evidence)}
        self.runs = []  # (bucket, feats, witness) of the converted runs
        self.legacy_own = collections.OrderedDict()  # problem: Witness
        self.tried = collections.Counter()  # legacy runs a witness search made, per bucket
        self.exact = set()
        # what the rules of compare.py (and the exploration's, the race
        # check's) found, by who found it: compare.Finding each
        self.findings = collections.OrderedDict()
        self.done = {}  # bucket: the legacy schedules a witness search ran
        self.said = {}  # (side, problem feature): how a run first said it

    def add(self, side, b, res, label, replay=""):
        """Take run @res of @side in: bucket @b (bucket(size, seed)), said
        as @label, replayed by @replay."""
        if res is None:
            return
        self.exact |= set((res.scenario or {}).get("exact_counts") or [])
        feats = features(res, self.scn.concurrent, self.exact,
                         controlled=label.startswith("schedule "))
        for k, text in feats.pop("said", {}).items():
            self.said.setdefault((side, k), text)
        w = Witness(label, replay)
        self.sides[side][b].add(feats, w)
        if side == "converted":
            self.runs.append((b, feats, w))
        else:
            for k, v in feats.items():
                if k.startswith("problem ") and v:
                    self.legacy_own.setdefault(k[len("problem "):], w)

    def claims(self):
        """What the converted side showed that calls for a word: each
        feature value no legacy run at its size showed (the first
        converted run showing each), and each failure the legacy side
        shows too (with its witness: the driver's own, said apart)."""
        out = collections.OrderedDict()
        for b, feats, w in self.runs:
            legacy = self.sides["legacy"].get(b)
            if not legacy or not legacy.runs:
                # a run of this side alone (a try refusing what only the
                # converted side asks for): held to its failures alone
                for k, v in feats.items():
                    if k.startswith("problem ") and v and (b, k, _value(v)) not in out:
                        out[(b, k, _value(v))] = Claim(
                            b, k, v, "%s, where only the converted side asks for what was "
                            "refused" % (self.said.get(("converted", k)) or k[len("problem "):]),
                            w)
                continue
            keys = dict(feats)
            ran = set(keys.pop("ran", ()))
            # a routine's running is a feature too, both ways
            for name in sorted(ran | legacy.routines()):
                keys["runs " + name] = name in ran
            for k, v in keys.items():
                key = (b, k, _value(v))
                if key in out:
                    continue
                got = legacy.shows(k, v)
                if got and not k.startswith("problem "):
                    continue  # shown alike: nothing to say
                c = Claim(b, k, v, self.said.get(("converted", k)) or describe(k, v, legacy),
                          w)
                c.legacy = got
                out[key] = c
        return list(out.values())

    def unshown(self):
        """The claims no legacy run has shown yet, where a legacy run is
        to be had (not a try of the converted side alone)."""
        return [c for c in self.claims() if c.legacy is None and
                self.sides["legacy"].get(c.bucket) and self.sides["legacy"][c.bucket].runs]


def witness_specs(claims, done, steps):
    """The legacy schedules to try for @claims, all of one bucket: the
    schedule each converted run showed its value under (its pct seed,
    with the legacy side's own steps), then the systematic ones, then
    pct seeds; none of @done (specs run already); at most WITNESS_RUNS
    of that size."""
    if not claims:
        return []
    most = WITNESS_RUNS[claims[0].bucket[0]]
    specs = []

    def pct(seed):
        return "pct:%s:3:%d" % (seed, steps) if steps else "pct:%s:3" % seed

    for c in claims:
        label = c.converted.label
        if label.startswith("schedule pct:"):
            specs.append(pct(label.split(":")[1]))
    specs += ["eager", "lazy"]
    out = [x for x in dict.fromkeys(specs) if x not in done]
    seed = 1
    while len(out) < most:
        if pct(seed) not in out and pct(seed) not in done:
            out.append(pct(seed))
        seed += 1
    return out[:most]


def decide(j):
    """The one entry point: (verdict, reasons, intended, own) of scenario
    judge @j.  Reasons: each converted value no legacy run showed (with
    how many legacy runs were tried, and the converted replay line), and
    each structural finding no declaration allows; intended: the
    findings a declaration allows; own: each failure the legacy side
    shows too (with where), and each failure of the legacy side's alone,
    which is never the conversion's."""
    reasons, intended, own = [], [], []
    shown_problems = set()
    for c in j.claims():
        b = c.bucket
        if c.legacy is None:
            tried = j.sides["legacy"][b].runs
            reasons.append(c.said(tried))
        elif c.key.startswith("problem "):
            shown_problems.add(c.key[len("problem "):])
            own.append(c.said(0))
    for problem, w in j.legacy_own.items():
        if problem not in shown_problems:
            own.append("%s (legacy, %s; the legacy side's own%s)" % (
                j.said.get(("legacy", "problem " + problem), problem), w.label,
                "; replay: " + w.replay if w.replay else ""))
    for fs in j.findings.values():
        for f in fs:
            into = intended if f.intended else reasons
            if f.text not in into:
                into.append(f.text)
    verdict = "DIFFERENT" if reasons else ("intended" if intended else "same")
    return verdict, reasons, intended, own
