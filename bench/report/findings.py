"""Findings beyond the aims, each one computed from this run's figures.

A finding whose figures are missing is left out rather than guessed.
"""

from .benchmarks import THROUGHPUT, WAKE
from .text import fmt, num, percent, times


def wake_latency(figs):
    parts = []
    for v, _ in WAKE:
        w = figs.get("wake_%s" % v)
        if w and w.get("p50") is not None:
            parts.append("%s %s us (p99 %s, %s of the hand-off)" % (
                v, fmt(w["p50"]), fmt(w["p99"]), times(w.get("ratio_to_futex"))))
    fu = figs.get("wake_futex_handoff")
    if not parts or not fu or fu.get("p50") is None:
        return None
    s = ("**Wake latency**, queue to routine start with the worker asleep, p50 of all "
         "samples: %s; the bare futex hand-off %s us (p99 %s)." % (
             "; ".join(parts), fmt(fu["p50"]), fmt(fu["p99"])))
    tails = []
    for v, _ in WAKE:
        share = figs.value("wake_%s" % v, "over_10x_hand_off_p50")
        if share is not None:
            tails.append("%s %s" % (v, percent(share)))
    bare = fu.get("over_10x_hand_off_p50")
    if tails and bare is not None:
        s += ("  Samples over 10 times the hand-off's median: %s, against %s for the bare "
              "hand-off." % (", ".join(tails), percent(bare)))
        wq = [figs.value("wake_%s" % v, "over_10x_hand_off_p50")
              for v in ("queue_work", "schedule_work")]
        if None not in wq and max(wq) < bare:
            s += ("  The workqueue's tail is the shorter: its worker runs on the CPU the "
                  "work is queued from, which is awake, where the hand-off's thread may "
                  "wait for the other CPU.")
    return s


def same_code(figs):
    """schedule_work and queue_work: their gap against the rounds' own spread."""
    out = []
    for p in (1, 2):
        sw = figs.get("throughput_schedule_work_%dp" % p)
        qw = figs.get("throughput_queue_work_%dp" % p)
        if not (sw and qw and sw["median"] and qw["median"]):
            continue
        gap = abs(sw["median"] - qw["median"]) / max(sw["median"], qw["median"])
        spread = max((f["max"] - f["min"]) / f["median"] for f in (sw, qw))
        out.append("with %d producer%s they differ by %s, their rounds spread over %s "
                   "of the median (%s)" % (
                       p, "s" if p > 1 else "", percent(gap), percent(spread),
                       "within the noise" if gap <= spread else "beyond the noise"))
    if not out:
        return None
    return ("**schedule_work and queue_work run the same code** (the events queue or "
            "one of its own): %s.  cpu_per_work figures are steadier than the rate: "
            "they do not count the time other processes held the CPUs." % "; ".join(out))


def throughput_sleeps(figs):
    """How often each consumer slept, and what the reference polls for."""
    parts = []
    for v, _, _ in THROUGHPUT:
        a = figs.value("throughput_%s_1p" % v, "switches_per_1k_works")
        b = figs.value("throughput_%s_2p" % v, "switches_per_1k_works")
        if a is not None and b is not None:
            parts.append("%s %s / %s" % (v, num(a, 2), num(b, 2)))
    if not parts:
        return None
    polls = figs.value("throughput_wfcqueue_1p", "spin_polls")
    s = ("**Context switches per 1000 works** in the throughput rounds (1 / 2 "
         "producers): %s.  A switch is mostly a consumer going to sleep on an empty "
         "queue and being woken, or yielding to a producer on its CPU." % "; ".join(parts))
    if polls:
        s += ("  Before it sleeps, the reference's consumer polls its empty queue %s times "
              "and yields once after a burst; the workqueue's worker only yields once "
              "after a burst." % fmt(polls))
    elif polls is not None:
        s += ("  Both consumers follow one policy: after a burst they yield once, else "
              "they sleep at once; neither polls its empty queue.")
    return s


def requeue(figs):
    again, fresh = figs.value("enqueue_queue_work_requeue"), figs.value("enqueue_queue_work")
    if again is None or fresh is None or not fresh:
        return None
    s = ("**Requeueing a work that has run before** costs %s ns against %s ns for a "
         "fresh one (%s)." % (num(again, 1), num(fresh, 1), times(again / fresh)))
    if again > 1.1 * fresh:
        s += ("  queue_work() first looks at the cpu queue the work last ran on, to queue "
              "it behind itself if it still runs there: that look is the difference.")
    return s


def running(figs):
    """The worker's side of a work, measured apart from queueing."""
    parts = []
    for v in ("queue_work", "schedule_work", "schedule_task", "wfcqueue"):
        x = figs.value("run_%s" % v)
        if x is not None:
            parts.append("%s %s" % (v, num(x, 1)))
    if len(parts) < 2:
        return None
    return ("**Running a queued work**, the worker's side alone (the works piled up "
            "behind a blocker, run once it is let go), in CPU ns per work: %s." %
            "; ".join(parts))


def debug_registry(figs):
    dbg, fresh = figs.value("enqueue_queue_work_debug"), figs.value("enqueue_queue_work")
    if dbg is None or fresh is None:
        return None
    return ("**SHIM_DEBUG=0** was set for every run but one: with the pending-work "
            "registry on (the default; only the workqueue has one), each queue_work() "
            "also allocates and hashes a registry entry: %s ns per call "
            "(enqueue_queue_work_debug) against %s ns." % (num(dbg, 1), num(fresh, 1)))


def seed_flush(figs):
    fs = figs.get("flush_seed_loop")
    if not fs or fs.get("barriers_median") is None:
        return None
    return ("**The seed's flush loop is emulated** on the same (per-CPU) queue with the "
            "public API: a count of works queued and not yet started stands for "
            "`!list_empty(&wq->worklist)`, and its barrier work goes to the flushing "
            "thread's CPU, as queue_work() sends it.  It queued %s barriers at the "
            "median and returned in %s." % (fmt(fs["barriers_median"]), fs["returned"]))


def delayed(figs):
    d = figs.get("delayed_work_lateness")
    if not d or d.get("p50") is None:
        return None
    return ("**Delayed work** started %s jiffies after its timer's expiry at the median, "
            "%s at p99 and %s at worst; %d of %d samples early." % (
                fmt(d["p50"]), fmt(d["p99"]), fmt(d["max_jiffies"]), d["early"],
                d["samples"]))


FINDINGS = [wake_latency, throughput_sleeps, same_code, requeue, running, debug_registry,
            seed_flush, delayed]


def build(figs):
    return [s for s in (f(figs) for f in FINDINGS) if s]
