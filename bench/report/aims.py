"""The aims of the benchmarks: what was measured, met or not, and why not.

Each aim is a dict, as results.json stores it: aim (what is aimed at),
value (what was measured), ratio and threshold where the aim is a ratio,
met (True, False, or None when it could not be measured) and why: for an
aim not met, what this run's own figures point at.
"""

from .benchmarks import ROUTINES, WORKQUEUE_VARIANTS, producers_text
from .text import fmt, num, percent, times

RATE_AIM = 0.9     # workqueue works/s at least this times the reference's
CPU_AIM = 1.2      # workqueue CPU ns per work at most this times the reference's
SCALING_AIM = 1.0  # workqueue works/s with 2 producers at least this times with 1
WAKE_AIM = 1.3     # median wake latency at most this times the futex hand-off
ISOLATION_AIM = 50  # taskqueue p99 tty latency over the workqueue's, at least
RUNS_AIM = 200     # whole controlled tty scenario runs per second on 2 CPUs, at least
SEARCH_AIM = 100   # device search runs per CPU second of every 2.4 driver, at least
SCHEDULES_AIM = 1000  # controlled schedules/s in one process, median over scenarios, at least
SCHEDULES_RATIO_AIM = 10  # ... and at least this times one process per schedule
CONVERT_AIM_S = 30  # convert --in-place of the generated 2,000-file tree, seconds at most
CONVERT_AIM_MB = 1024  # resident memory of any one spatch process, MB at most
RENAME_AIM_RATIO = 1.2  # convert --rename over the default, same tree, side by side


def verdict(met):
    return {True: "MET", False: "NOT MET", None: "n/a"}[met]


def load_note(machine):
    """How loaded the machine was, in a sentence."""
    load = machine.get("load_start") or ""
    try:
        first = float(load.split()[0])
    except (IndexError, ValueError):
        return ""
    cpus = machine.get("cpus") or 1
    if first <= cpus / 2:
        return ""
    return ("  The machine was shared: load average %s at the start (%s at the end) "
            "on %d CPUs." % (first, (machine.get("load_end") or "?").split()[0], cpus))


class Aims:
    def __init__(self, figs, machine):
        self.figs = figs
        self.machine = machine
        self.all = []

    def add(self, aim, value, met, why=None, ratio=None, threshold=None):
        self.all.append({"aim": aim, "value": value, "met": met,
                         "ratio": round(ratio, 3) if ratio is not None else None,
                         "threshold": threshold,
                         "why": why() if met is False and why else ""})

    def build(self):
        for p in (1, 2):
            self.against_taskqueue(p)
        for p in (1, 2):
            self.against_reference(p, "rate")
            self.against_reference(p, "cpu")
        self.two_producers()
        self.wake()
        self.isolation()
        self.flush()
        self.controlled_runs()
        self.schedules()
        self.search_runs()
        self.conversion()
        return self.all

    # ------------------------------------------------------------ throughput

    def against_taskqueue(self, p):
        f = self.figs
        sw, qw = f.get("throughput_schedule_work_%dp" % p), f.get("throughput_queue_work_%dp" % p)
        st = f.get("throughput_schedule_task_%dp" % p)
        verb = "at least matches" if p == 1 else "beats"
        aim = "workqueue %s the taskqueue in works/s, %s" % (verb, producers_text(p))
        if not (sw and st and sw["median"] and st["median"]):
            self.add(aim, "not measured", None)
            return
        r = sw["ratio_to_taskqueue"]
        met = r >= 1.0 if p == 1 else r > 1.0
        self.add(aim, "%s: schedule_work %s/s against schedule_task %s/s; queue_work %s" % (
            times(r), fmt(sw["median"]), fmt(st["median"]),
            times(qw["ratio_to_taskqueue"] if qw else None)),
            met, lambda: self.why_against_taskqueue(p), ratio=r, threshold=1.0)

    def why_against_taskqueue(self, p):
        f = self.figs
        sw = f.get("throughput_schedule_work_%dp" % p)
        st = f.get("throughput_schedule_task_%dp" % p)
        out = ["schedule_work ran %s of schedule_task's works/s." % times(sw["ratio_to_taskqueue"])]
        out.append(self.switches_sentence(sw, st, "the taskqueue"))
        cpu_w = f.value("cpu_per_work_schedule_work_%dp" % p)
        cpu_t = f.value("cpu_per_work_schedule_task_%dp" % p)
        if cpu_w and cpu_t:
            out.append("It spent %s CPU-ns per work against %s." % (num(cpu_w, 0), num(cpu_t, 0)))
        return " ".join(s for s in out if s) + load_note(self.machine)

    def against_reference(self, p, metric):
        """The worse of schedule_work and queue_work, empty and small routine."""
        f = self.figs
        if metric == "rate":
            prefix, threshold, worse = "throughput", RATE_AIM, min
            aim = "workqueue >= %gx the reference's works/s, %s" % (threshold, producers_text(p))
        else:
            prefix, threshold, worse = "cpu_per_work", CPU_AIM, max
            aim = "workqueue <= %gx the reference's CPU ns/work, %s" % (
                threshold, producers_text(p))
        unit = "/s" if metric == "rate" else " ns"
        ratios, figs, parts = {}, {}, []
        for suffix, routine in ROUTINES:
            ref = f.get("%s_wfcqueue%s_%dp" % (prefix, suffix, p))
            got = []
            for v in WORKQUEUE_VARIANTS:
                g = f.get("%s_%s%s_%dp" % (prefix, v, suffix, p))
                if not ref or not g or g.get("ratio_to_reference") is None:
                    continue
                ratios[v + suffix], figs[v + suffix] = g["ratio_to_reference"], g
                got.append("%s %s%s (%s)" % (
                    v, fmt(g["median"]), unit, times(g["ratio_to_reference"])))
            if got:
                parts.append("%s: %s against %s%s" % (
                    routine.split(" (")[0], ", ".join(got), fmt(ref["median"]), unit))
        if not ratios:
            self.add(aim, "not measured", None)
            return
        v = worse(ratios, key=ratios.get)
        r = ratios[v]
        met = r >= threshold if metric == "rate" else r <= threshold
        value = "%s: %s; %s" % (times(r), "; ".join(parts),
                                self.rounds_met(figs[v], v, threshold, metric))
        self.add(aim, value, met, lambda: self.why_reference(p, metric, v, r, threshold),
                 ratio=r, threshold=threshold)

    def two_producers(self):
        """Two producers queue at least as many works/s as one, on the workqueue."""
        f = self.figs
        aim = "workqueue with 2 producers >= %gx its works/s with 1" % SCALING_AIM
        ratios, parts = {}, []
        for suffix, routine in ROUTINES:
            for v in WORKQUEUE_VARIANTS + ("wfcqueue",):
                one = f.get("throughput_%s%s_1p" % (v, suffix))
                two = f.get("throughput_%s%s_2p" % (v, suffix))
                if not (one and two and one["median"] and two["median"]):
                    continue
                r = two["median"] / one["median"]
                if v != "wfcqueue":
                    ratios[v + suffix] = r
                parts.append("%s%s %s" % (v, suffix.replace("_", " "), times(r)))
        if not ratios:
            self.add(aim, "not measured", None)
            return
        v = min(ratios, key=ratios.get)
        r = ratios[v]
        self.add(aim, "%s: 2 producers over 1, %s (the reference for comparison)" % (
            times(r), ", ".join(parts)), r >= SCALING_AIM,
            lambda: self.why_two_producers(v), ratio=r, threshold=SCALING_AIM)

    def why_two_producers(self, v):
        f = self.figs
        one, two = f.get("throughput_%s_1p" % v), f.get("throughput_%s_2p" % v)
        out = ["%s ran %s/s with 1 producer and %s/s with 2." % (
            v.replace("_small", " (small routine)"), fmt(one["median"]), fmt(two["median"]))]
        c1, c2 = f.value("cpu_per_work_%s_1p" % v), f.value("cpu_per_work_%s_2p" % v)
        if c1 and c2:
            out.append("Its CPU per work went from %s to %s ns: %s." % (
                num(c1, 1), num(c2, 1),
                "the work got dearer, so the producers share a cost (a cache line, a "
                "CPU)" if c2 > 1.15 * c1 else "each work cost the same, so the rate "
                "lost is time the producers did not run: the CPUs were taken"))
        out.append(self.round_spread_producers(one, two))
        return " ".join(s for s in out if s) + load_note(self.machine)

    @staticmethod
    def round_spread_producers(one, two):
        if one.get("min") is None or two.get("max") is None:
            return ""
        if two["max"] >= one["min"]:
            return ("The rounds overlap (1 producer %s..%s/s, 2 producers %s..%s/s): the "
                    "noise of this run is of the size of the gap." % (
                        fmt(one["min"]), fmt(one["max"]), fmt(two["min"]), fmt(two["max"])))
        return ""

    @staticmethod
    def rounds_met(fig, variant, threshold, metric):
        """In how many rounds, each pair run side by side, the ratio met the aim."""
        rs = fig.get("ratio_to_reference_rounds") or []
        if not rs:
            return "no pair of rounds"
        ok = [x for x in rs if (x >= threshold if metric == "rate" else x <= threshold)]
        return "%s round by round %s..%s, met in %d of %d" % (
            variant, times(min(rs)), times(max(rs)), len(ok), len(rs))

    def why_reference(self, p, metric, v, r, threshold):
        """@v is a variant, with _small for the small routine."""
        f = self.figs
        ref = "wfcqueue" + ("_small" if v.endswith("_small") else "")
        tp_w = f.get("throughput_%s_%dp" % (v, p))
        tp_r = f.get("throughput_%s_%dp" % (ref, p))
        cpu_w = f.value("cpu_per_work_%s_%dp" % (v, p))
        cpu_r = f.value("cpu_per_work_%s_%dp" % (ref, p))
        out = []
        if metric == "rate":
            out.append("%s ran %s of the reference's works/s (%s/s against %s/s): "
                       "%s short of the %s aim." % (
                           v, times(r), fmt(tp_w["median"]), fmt(tp_r["median"]),
                           percent(1 - r / threshold), times(threshold, 1)))
        else:
            out.append("%s spent %s of the reference's CPU per work (%s against %s "
                       "CPU-ns): %s over the %s aim." % (
                           v, times(r), num(cpu_w, 0), num(cpu_r, 0),
                           percent(r / threshold - 1), times(threshold, 2)))
        prefix = "throughput" if metric == "rate" else "cpu_per_work"
        out.append(self.round_spread(f.get("%s_%s_%dp" % (prefix, v, p)), threshold, metric))
        out.append(self.switches_sentence(tp_w, tp_r, "the reference"))
        out.append(self.per_work_sentence(cpu_w, cpu_r))
        out.append(self.stalls_sentence(tp_w, tp_r))
        return " ".join(s for s in out if s) + load_note(self.machine)

    @staticmethod
    def round_spread(fig, threshold, metric):
        rs = (fig or {}).get("ratio_to_reference_rounds") or []
        if not rs:
            return ""
        ok = sum(1 for x in rs if (x >= threshold if metric == "rate" else x <= threshold))
        s = "Round by round (each pair ran side by side) the ratio ranged %s..%s" % (
            times(min(rs)), times(max(rs)))
        if ok == 0:
            return s + ", short of the aim in every round."
        return s + "; it met the aim in %d of %d rounds, so this run's noise is of the " \
            "size of the gap." % (ok, len(rs))

    @staticmethod
    def switches_sentence(a, b, b_name):
        sa = a.get("switches_per_1k_works") if a else None
        sb = b.get("switches_per_1k_works") if b else None
        if sa is None or sb is None:
            return ""
        if sa > 1.5 * sb and sa - sb >= 0.5:
            return ("It switched context %s times per 1000 works against %s for %s: "
                    "its workers went to sleep and were woken more often, each time a "
                    "futex wait and a wake-up by a producer." % (num(sa, 2), num(sb, 2), b_name))
        if sb > 1.5 * sa and sb - sa >= 0.5:
            return ("It does not sleep more: it switched context %s times per 1000 "
                    "works against %s for %s." % (num(sa, 2), num(sb, 2), b_name))
        return ("Context switches are close (%s against %s per 1000 works for %s): the "
                "difference is in what each work costs, not in sleeping." % (
                    num(sa, 2), num(sb, 2), b_name))

    def per_work_sentence(self, cpu_w, cpu_r):
        """Where the extra CPU per work goes: queueing it, and running it."""
        f = self.figs
        q_w, q_r = f.value("enqueue_queue_work_requeue"), f.value("enqueue_wfcqueue")
        r_w, r_r = f.value("run_queue_work_requeue"), f.value("run_wfcqueue")
        if None in (q_w, q_r, r_w, r_r):
            return ""
        s = ("Per work, measured apart (enqueue and run figures, works that ran before): "
             "queueing costs the producer %s ns on the workqueue against %s ns on the "
             "reference, and running a queued work costs the worker %s CPU-ns against "
             "%s" % (
                 num(q_w, 1), num(q_r, 1), num(r_w, 1), num(r_r, 1)))
        if cpu_w is None or cpu_r is None or cpu_w <= cpu_r:
            return s + "."
        gap = cpu_w - cpu_r
        extra_q, extra_r = max(0.0, q_w - q_r), max(0.0, r_w - r_r)
        larger = "running" if extra_r >= extra_q else "queueing"
        s += (": %s and %s ns more, the larger part in %s.  The throughput rounds spent "
              "%s CPU-ns per work more" % (num(extra_q, 1), num(extra_r, 1), larger,
                                           num(gap, 0)))
        rest = gap - extra_q - extra_r
        if rest <= 0:
            return s + ", which these two account for."
        return s + ("; these two account for %s of it, the other %s ns come only with "
                    "producer and worker running together (sleeping, waking, yielding, "
                    "sharing a CPU)." % (percent((extra_q + extra_r) / gap), num(rest, 0)))

    @staticmethod
    def stalls_sentence(a, b):
        sa = a.get("stalls_median") if a else None
        sb = b.get("stalls_median") if b else None
        if sa is None or sb is None or sa <= 2 * sb + 10:
            return ""
        return ("Its producers found the next work of their ring not yet run %s times "
                "a round against %s: the worker fell behind them." % (fmt(sa), fmt(sb)))

    # ------------------------------------------------------------ latency

    def wake(self):
        f = self.figs
        w, ws = f.get("wake_queue_work"), f.get("wake_schedule_work")
        aim = "median wake latency within %gx the bare futex hand-off" % WAKE_AIM
        if not (w and ws and w["ratio_to_futex"] is not None
                and ws["ratio_to_futex"] is not None):
            self.add(aim, "not measured", None)
            return
        r = max(w["ratio_to_futex"], ws["ratio_to_futex"])
        self.add(aim, "%s: queue_work p50 %s us (%s of the futex hand-off in the same "
                 "processes), schedule_work %s; futex hand-off p50 %s us" % (
                     times(r), fmt(w["p50"]), times(w["ratio_to_futex"]),
                     times(ws["ratio_to_futex"]), fmt(f.value("wake_futex_handoff", "p50"))),
                 r <= WAKE_AIM, self.why_wake, ratio=r, threshold=WAKE_AIM)

    def why_wake(self):
        f = self.figs
        out = []
        w = f.get("wake_queue_work")
        out.append("queue_work's routine started %s us after the queueing at the median, "
                   "%s of the hand-off measured in the same processes." % (
                       fmt(w["p50"]), times(w["ratio_to_futex"])))
        ref = f.get("wake_wfcqueue")
        if ref and ref.get("ratio_to_futex") is not None:
            if ref["ratio_to_futex"] > WAKE_AIM:
                out.append("The reference, woken the same way with no shim, was at %s: "
                           "the host's wake-up, not the stack, is most of it." %
                           times(ref["ratio_to_futex"]))
            else:
                out.append("The reference, woken the same way with no shim, was at %s: "
                           "the difference is the stack's own path from queue_work() to "
                           "the routine." % times(ref["ratio_to_futex"]))
        if w.get("min") is not None and w["min"] != w["max"]:
            out.append("The per-round p50 ranged %s..%s us." % (fmt(w["min"]), fmt(w["max"])))
        return " ".join(out) + load_note(self.machine)

    def isolation(self):
        f = self.figs
        r = f.get("isolation_p99_ratio_taskqueue_over_workqueue")
        t, w = f.get("isolation_tty_taskqueue"), f.get("isolation_tty_workqueue")
        aim = ("p99 tty latency under journal commits at least %dx lower than the "
               "taskqueue's" % ISOLATION_AIM)
        if not (r and r["median"] is not None and r.get("pooled_p99_ratio")):
            self.add(aim, "not measured", None)
            return
        pooled = r["pooled_p99_ratio"]
        self.add(aim, "%s pooled: taskqueue p99 %s us, workqueue p99 %s us (per pair of "
                 "rounds: median %s, min %s)" % (
                     times(pooled, 0), fmt(t["p99"]), fmt(w["p99"]), times(r["median"], 0),
                     times(r["min"], 0)),
                 pooled >= ISOLATION_AIM, self.why_isolation, ratio=pooled,
                 threshold=ISOLATION_AIM)

    def why_isolation(self):
        f = self.figs
        t, w = f.get("isolation_tty_taskqueue"), f.get("isolation_tty_workqueue")
        out = ["At the median the workqueue's tty work waited %s us against %s us on "
               "the taskqueue (%s lower)." % (
                   fmt(w["p50"]), fmt(t["p50"]),
                   times(t["p50"] / w["p50"], 0) if w["p50"] else "-")]
        out.append("Its tail is what falls short: p99 %s us, max %s us, where the "
                   "taskqueue's p99 was %s us." % (fmt(w["p99"]), fmt(w["max_us"]), fmt(t["p99"])))
        r = f.get("isolation_p99_ratio_taskqueue_over_workqueue")
        if r and r["min"] is not None:
            out.append("Per pair of rounds the p99 ratio ranged %s..%s." % (
                times(r["min"], 0), times(r["max"], 0)))
        return " ".join(out) + load_note(self.machine)

    def flush(self):
        fo, fs = self.figs.get("flush_ours"), self.figs.get("flush_seed_loop")
        aim = "flush returns under refill while the seed's loop does not"
        if not (fo and fs and fo["returned"] != "0/0 rounds"
                and fs["returned"] != "0/0 rounds"):
            self.add(aim, "not measured", None)
            return
        ours_ok = fo["rounds"] == int(fo["returned"].split("/")[1].split()[0])
        seed_stuck = fs["rounds"] == 0
        self.add(aim, "flush_workqueue(): %s ms median (%s returned); seed loop: %s" % (
            fmt(fo["median"]), fo["returned"],
            fs.get("status") or "returned in %s ms median" % fmt(fs["median"])),
            ours_ok and seed_stuck, self.why_flush)

    def why_flush(self):
        fo, fs = self.figs.get("flush_ours"), self.figs.get("flush_seed_loop")
        if fs and fs["rounds"]:
            return ("The seed's loop returned in %d round(s), after %s barriers at the "
                    "median: the producers were descheduled long enough for the queue to "
                    "be empty at one instant; that is luck, not a guarantee." % (
                        fs["rounds"], fmt(fs.get("barriers_median"))))
        return ("flush_workqueue() did not return within the limit in every round (%s): "
                "a bug to look for in flush_cpu_workqueue()." % fo["returned"])

    # ------------------------------------------------------------ controlled scheduling

    def controlled_runs(self):
        f = self.figs
        aim = ("whole tty scenario runs under controlled schedules at least %d/s on "
               "2 CPUs" % RUNS_AIM)
        got = {side: f.value("scenario_runs_%s_pct" % side) for side in ("legacy", "converted")}
        if None in got.values():
            self.add(aim, "not measured", None)
            return
        worst = min(got, key=got.get)
        r = got[worst] / RUNS_AIM
        self.add(aim, "%s: legacy %s runs/s, converted %s runs/s (medians of rounds; the "
                 "worse is the %s side)" % (times(r), fmt(got["legacy"]), fmt(got["converted"]),
                                            worst),
                 r >= 1, lambda: self.why_controlled_runs(worst), ratio=r, threshold=RUNS_AIM)

    def why_controlled_runs(self, side):
        f = self.figs
        pct = f.get("scenario_runs_%s_pct" % side)
        free = f.value("scenario_runs_%s_free" % side)
        start = f.value("scenario_runs_%s_start" % side)
        out = ["Every run is a process of its own: the scenario binary runs one scenario "
               "and exits, with no way to repeat a run in one process."]
        if start is not None:
            s = ("Start-up alone (the binary with --list: exec, the dynamic loader, the "
                 "shim's boot) ran %s/s over the same jobs" % fmt(start))
            if start < RUNS_AIM:
                s += ", below the aim by itself: process start-up alone rules it out here."
            else:
                s += (", %s of a controlled run's time: start-up is not what is short." %
                      percent(pct["median"] / start))
            out.append(s)
        if free is not None:
            s = ("The same runs free, with no scheduler, reached %s/s; the controlled "
                 "ones %s of that." % (fmt(free), times(pct.get("ratio_to_free"))))
            if free < RUNS_AIM:
                s += (" The scenarios' own work, with host threads and no scheduler at all, "
                      "already falls short of the aim.")
            out.append(s)
        pts, pt = pct.get("points_per_run"), f.value("sched_point")
        jobs = pct.get("jobs") or 1
        if pts and pt and pct["median"]:
            per_run_ms = 1000.0 * jobs / pct["median"]
            out.append("A run passes %s scheduling points on average; were each one a "
                       "switch at the %s ns sched_point measured, that would be %s ms of "
                       "the %s ms a run took on one of the %d jobs; most points change no "
                       "task and cost less." % (
                           fmt(float(pts)), fmt(pt), num(pts * pt / 1e6, 1),
                           num(per_run_ms, 1), jobs))
        out.append(self.slowest_sentence(pct, f.get("scenario_runs_%s_free" % side)))
        return " ".join(x for x in out if x) + load_note(self.machine)

    def schedules(self):
        f = self.figs
        one, each = f.get("schedules_in_one"), f.value("schedules_one_each")
        aim = ("controlled schedules in one process at least %d/s and %dx one process per "
               "schedule (median over the demo's scenarios at exploration size, one CPU)" % (
                   SCHEDULES_AIM, SCHEDULES_RATIO_AIM))
        if not one or one["median"] is None or not each:
            self.add(aim, "not measured", None)
            return
        rat = one.get("ratio_to_one_each")
        r = min(one["median"] / SCHEDULES_AIM, (rat or 0) / SCHEDULES_RATIO_AIM)
        self.add(aim, "%s/s in one process (%s of %d/s), one process each %s/s: %s (median "
                 "of the scenarios' ratios)" % (fmt(one["median"]),
                                                times(one["median"] / SCHEDULES_AIM),
                                                SCHEDULES_AIM, fmt(each), times(rat)),
                 r >= 1, self.why_schedules, ratio=r, threshold=SCHEDULES_AIM)

    def why_schedules(self):
        one = self.figs.get("schedules_in_one")
        per = one.get("per_scenario") or []
        out = []
        if one["median"] < SCHEDULES_AIM:
            out.append("In one process a schedule took %s ms at the median scenario: what "
                       "is left is the scenario's own work, its scheduling points and the "
                       "reset (every page it wrote copied back or cleared)." % num(
                           1000.0 / one["median"], 2))
        slow = [p for p in per if p[3] < SCHEDULES_RATIO_AIM]
        if slow:
            out.append("%d of %d scenarios gain less than %dx, their own work outweighing "
                       "a process start; slowest in one process: %s." % (
                           len(slow), len(per), SCHEDULES_RATIO_AIM, "; ".join(
                               "%s %s/s (x%s)" % (p[0], fmt(p[1]), num(p[3], 1))
                               for p in per[:4])))
        return " ".join(out) + load_note(self.machine)

    def search_runs(self):
        """A 2.4 driver's device search costs what a controlled schedule
        does: the slowest driver's runs, not the median's, since the
        demo waits for each driver's search."""
        f = self.figs
        search = f.get("search_runs")
        aim = ("device search at least %d runs per CPU second on every 2.4 driver of "
               "examples/tty24 (the slowest), beside the shipped drivers' schedules" % SEARCH_AIM)
        per = (search or {}).get("per_driver") or []
        if not per:
            self.add(aim, "not measured", None)
            return
        name, worst = min(((n, a) for n, a, _ in per), key=lambda x: x[1])
        one = f.get("schedules_in_one")
        beside = ", shipped drivers' schedules %s/s" % fmt(one["median"]) \
            if one and one.get("median") is not None else ""
        self.add(aim, "slowest %s %s runs/CPU s (%s), median %s%s" % (
            name, fmt(worst), times(worst / SEARCH_AIM), fmt(search["median"]), beside),
            worst >= SEARCH_AIM, lambda: self.why_search(per), ratio=worst / SEARCH_AIM,
            threshold=SEARCH_AIM)

    def why_search(self, per):
        slow = sorted((x for x in per if x[1] < SEARCH_AIM), key=lambda x: x[1])
        return ("Below %d runs/CPU s: %s; a run of the search is a whole scenario of the "
                "driver from the checkpoint before the boot (its probe, init_module(), the "
                "exerciser's steps and the device's interrupts), so what is left is the "
                "driver's own work there." % (SEARCH_AIM, "; ".join(
                    "%s %s" % (n, fmt(a)) for n, a, _ in slow)) + load_note(self.machine))

    @staticmethod
    def slowest_sentence(pct, free):
        """Which scenarios take longer than the aim leaves a run."""
        jobs = pct.get("jobs") or 1
        budget = 1000.0 * jobs / RUNS_AIM
        per = pct.get("per_scenario") or []
        free_ms = {n: t for n, t, _ in (free or {}).get("per_scenario") or []}
        over = [x for x in per if x[1] > budget]
        if not over:
            return ""
        return ("At %d runs/s on %d jobs a run may take %s ms; under pct these took "
                "longer: %s." % (RUNS_AIM, jobs, num(budget, 0), "; ".join(
                    "%s %s ms a run (%s points; free %s ms)" % (
                        n, num(t, 1), fmt(float(p)) if p else "-",
                        num(free_ms.get(n), 1)) for n, t, p in over)))

    # ------------------------------------------------------------ conversion

    def conversion(self):
        f = self.figs
        g = {j: f.get("convert_generated_jobs%d" % j) for j in (1, 2)}
        g = {j: x for j, x in g.items() if x and x["median"] is not None}
        two = g.get(2)
        aim = "convert --in-place a generated tree in under %d s (--jobs 2)" % CONVERT_AIM_S
        if not two or not two.get("seconds"):
            self.add(aim, "not measured", None)
        else:
            secs = two["seconds"]
            value = "%s s for %s files, %s of them candidates (%s files/s; --jobs 1: %s s)" % (
                fmt(secs), fmt(two.get("files")), fmt(two.get("candidates")), fmt(two["median"]),
                fmt(g[1]["seconds"]) if 1 in g else "not measured")
            self.add(aim, value, secs < CONVERT_AIM_S, lambda: self.why_conversion(two),
                     ratio=secs / CONVERT_AIM_S, threshold=CONVERT_AIM_S)
        ren = f.get("convert_generated_rename_jobs2")
        aim = "convert --rename within %sx of the default's time (generated tree, --jobs 2)" % (
            fmt(RENAME_AIM_RATIO))
        if not ren or ren.get("over_default") is None:
            self.add(aim, "not measured", None)
        else:
            r = ren["over_default"]
            self.add(aim, "%sx the default's wall clock (spatch CPU %sx), side by side" % (
                fmt(r), fmt(ren.get("cpu_over_default"))), r <= RENAME_AIM_RATIO,
                lambda: "--rename gives coccinelle the bodies of no concern blanked, as the "
                "default does, and collects its tree-wide name map in Python; what is left is "
                "the rename stage's matching (convert -v prints each run's CPU).",
                ratio=r / RENAME_AIM_RATIO, threshold=RENAME_AIM_RATIO)
        aim = "no spatch process above %d MB while converting" % CONVERT_AIM_MB
        peaks = [x.get("peak_mb") for x in g.values() if x.get("peak_mb") is not None]
        d = f.get("convert_drivers_legacy")
        if d and d.get("peak_mb") is not None:
            peaks.append(d["peak_mb"])
        if not peaks:
            self.add(aim, "not measured", None)
            return
        self.add(aim, "peak %s MB" % fmt(max(peaks)), max(peaks) < CONVERT_AIM_MB,
                 lambda: "A group of files grew past the bound: convert --max-memory "
                 "(default 1024) stops such a group and runs it again in halves.",
                 ratio=max(peaks) / CONVERT_AIM_MB, threshold=CONVERT_AIM_MB)

    def why_conversion(self, fig):
        return ("%s s for %s candidates: most of convert's time is spatch on the "
                "candidates (convert -v prints each run's CPU).%s" % (
                    fmt(fig["seconds"]), fmt(fig.get("candidates")), load_note(self.machine)))


def build(figs, machine):
    return Aims(figs, machine).build()
