"""The PNG plots, drawn by gnuplot from the figures and the pooled samples.

Without gnuplot, or without a PNG terminal, there are no plots and the
report says so.  Each plot's data and script are kept in plot-data/.
"""

import os
import subprocess
import sys


def terminal():
    """The best PNG terminal gnuplot has, or None."""
    try:
        p = subprocess.run(["gnuplot", "-e", "set terminal"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = [line.split()[0] for line in p.stdout.splitlines() if line.strip()]
    if "pngcairo" in words:
        return "pngcairo size 900,560 font 'sans,10'"
    if "png" in words:
        return "png size 900,560"
    return None


def write_cdf(path, values, points=1500):
    n = len(values)
    step = max(1, n // points)
    with open(path, "w") as f:
        for i in range(0, n, step):
            f.write("%g %g\n" % (values[i], (i + 1) / n))
        f.write("%g 1\n" % values[-1])


class Plotter:
    def __init__(self, out, term):
        self.out = out
        self.term = term
        self.data = os.path.join(out, "plot-data")
        self.made = []

    def draw(self, name, script):
        path = os.path.join(self.out, name + ".png")
        full = "set terminal %s\nset termoption noenhanced\nset output '%s'\n%s\n" % (
            self.term, path, script)
        with open(os.path.join(self.data, name + ".gp"), "w") as f:
            f.write(full)
        p = subprocess.run(["gnuplot"], input=full, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode == 0 and os.path.exists(path):
            self.made.append(name + ".png")
        else:
            print("report: gnuplot failed for %s: %s" % (name, p.stdout.strip()),
                  file=sys.stderr)

    def bars(self, name, title, ylabel, rows):
        """Grouped bars, 1 and 2 producers, median with min..max error bars."""
        if not rows:
            return
        p = os.path.join(self.data, name + ".dat")
        with open(p, "w") as f:
            f.write("\n".join(rows) + "\n")
        self.draw(name, """
set title '%s'
set ylabel '%s'
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set boxwidth 0.9
set yrange [0:*]
set grid ytics
set key top left
plot '%s' using 2:3:4:xtic(1) title '1 producer', '' using 5:6:7 title '2 producers'
""" % (title, ylabel, p))

    def cdf(self, name, title, xlabel, logx, series):
        plots = []
        for i, (label, vals) in enumerate(series):
            if not vals:
                continue
            p = os.path.join(self.data, "%s-%d.dat" % (name, i))
            write_cdf(p, vals)
            plots.append("'%s' using 1:2 with lines lw 2 title '%s'" % (p, label))
        if not plots:
            return
        self.draw(name + "-cdf", """
set title '%s'
set xlabel '%s'
set ylabel 'fraction of samples (CDF)'
%s
set yrange [0:1.02]
set grid
set key bottom right
plot %s
""" % (title, xlabel, "set logscale x" if logx else "", ", ".join(plots)))

    def flush(self, figs):
        fo, fs = figs.get("flush_ours"), figs.get("flush_seed_loop")
        if not (fo and fs and fo["median"] is not None):
            return
        limit = fs.get("limit_s") or 0
        seed = fs["median"] if fs["median"] is not None else limit * 1000
        label = "seed loop" if fs["median"] is not None else \
            "seed loop (did not return: %g s limit)" % limit
        p = os.path.join(self.data, "flush.dat")
        with open(p, "w") as f:
            f.write("\"flush_workqueue()\" %g\n\"%s\" %g\n" % (fo["median"], label, seed))
        self.draw("flush", """
set title 'Flush while 2 threads keep refilling the queue (median)'
set ylabel 'milliseconds until the flush returns (log scale)'
set logscale y
set style fill solid 0.6 border -1
set boxwidth 0.5
set yrange [1:*]
set grid ytics
unset key
plot '%s' using 0:2:xtic(1) with boxes, \\
     '' using 0:2:(sprintf('%%.0f ms', $2)) with labels offset 0,1
""" % p)


def per_producers(figs, prefix, variants, scale):
    rows = []
    for v in variants:
        f1 = figs.get("%s_%s_1p" % (prefix, v))
        f2 = figs.get("%s_%s_2p" % (prefix, v))
        if f1 and f2 and f1["median"] and f2["median"]:
            rows.append("%s %g %g %g %g %g %g" % (
                v, f1["median"] / scale, f1["min"] / scale, f1["max"] / scale,
                f2["median"] / scale, f2["min"] / scale, f2["max"] / scale))
    return rows


def draw_all(out, term, figs, cdfs, variants):
    """Every plot; returns the names of the PNG files made."""
    if not term:
        return []
    pl = Plotter(out, term)
    os.makedirs(pl.data, exist_ok=True)
    pl.bars("throughput", "Throughput, empty routine (median, bars: min..max over rounds)",
            "million works queued and run per second",
            per_producers(figs, "throughput", variants, 1e6))
    pl.bars("cpu-per-work", "CPU time per work, every thread (median, bars: min..max)",
            "CPU nanoseconds per work", per_producers(figs, "cpu_per_work", variants, 1))
    specs = [
        ("wake", "Wake latency: queue to routine start, worker asleep",
         "microseconds (log scale)", True),
        ("isolation", "tty work latency while journal commits sleep",
         "microseconds (log scale)", True),
        ("delayed", "queue_delayed_work(): start minus requested delay (HZ=1000)",
         "milliseconds over the requested delay", False),
    ]
    for name, title, xlabel, logx in specs:
        pl.cdf(name, title, xlabel, logx, cdfs.get(name) or [])
    pl.flush(figs)
    return pl.made
