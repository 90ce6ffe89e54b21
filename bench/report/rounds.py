"""The rounds bench/run recorded, and the statistics taken over them.

bench/run writes one JSON object per round of one variant to
raw/results.jsonl, tagged with figure, variant and round; a round that
failed or was skipped has "failed" (or "missing") instead of results.
Latency programs also leave their samples, one a line, in raw/samples/.
"""

import glob
import json
import os
import statistics


def load(raw):
    """Every round of raw/results.jsonl, in the order they ran."""
    rows = []
    with open(os.path.join(raw, "results.jsonl")) as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def _matches(row, figure, variant):
    return row["figure"] == figure and (variant is None or row["variant"] == variant)


def good(rows, figure, variant=None):
    """The rounds of @figure (and @variant) that produced a result."""
    return [r for r in rows if _matches(r, figure, variant)
            and "failed" not in r and "missing" not in r]


def problems(rows, figure, variant=None):
    """Why the rounds of @figure (and @variant) that did not, did not."""
    return [r.get("failed") or r.get("missing") for r in rows
            if _matches(r, figure, variant) and ("failed" in r or "missing" in r)]


def failed(rows):
    return [r for r in rows if "failed" in r]


def median(rows, key):
    """Median of @key over the rounds that have it, or None."""
    v = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(v) if v else None


def ratio(a, b):
    return a / b if a is not None and b else None


def paired_ratios(rows_a, rows_b, key):
    """@key of A over @key of B, round by round (the rounds ran side by side)."""
    b = {r["round"]: r[key] for r in rows_b if r.get(key)}
    return [r[key] / b[r["round"]] for r in rows_a
            if r.get(key) is not None and r["round"] in b]


def quantile(sorted_v, q):
    """Nearest rank, as bench.h computes it."""
    if not sorted_v:
        return None
    return sorted_v[int(q * (len(sorted_v) - 1) + 0.5)]


def sample_files(raw, figure, variant):
    pattern = "%s-%s-r*.txt" % (figure, variant)
    return sorted(glob.glob(os.path.join(raw, "samples", pattern)))


def read_columns(path):
    """The whitespace-separated integer columns of a samples file."""
    try:
        with open(path) as f:
            return [[int(w) for w in line.split()] for line in f if line.strip()]
    except OSError:
        return []


def pooled(raw, figure, variant, column=0):
    """Every round's samples of one variant, pooled and sorted."""
    v = []
    for path in sample_files(raw, figure, variant):
        v += [cols[column] for cols in read_columns(path) if len(cols) > column]
    v.sort()
    return v
