"""convert - step 1 of the demo: the legacy drivers through the conversion."""
import json
import os
import shutil
import subprocess
import sys

from declarations import shown
from report import StepFailed, say

import runner


def driver_of_file(path):
    """The driver a file belongs to, by the manifest (headers: "headers")."""
    base = os.path.basename(path)
    for d in runner.drivers():
        if base in d.sources:
            return d.name
    return "headers"


def apply_patch(patch, tree):
    """Apply @patch to @tree, or fail the step naming the file and hunk
    (tried first: nothing is half applied)."""
    cmd = ["patch", "-p1", "-d", tree, "--no-backup-if-mismatch"]
    with open(patch) as f:
        r = subprocess.run(cmd + ["--dry-run"], stdin=f, capture_output=True, text=True)
    if r.returncode:
        raise StepFailed("patch", "%s does not apply: %s" % (
            shown(patch), hunks(r.stdout + r.stderr)))
    with open(patch) as f:
        subprocess.run(cmd + ["-s"], stdin=f, check=True)


def hunks(text):
    """patch's words for what failed: "random.c hunk #1 FAILED at 12", ..."""
    out, cur = [], None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(("checking file ", "patching file ")):
            cur = line.split(" ", 2)[2]
        elif line.startswith("file "):
            cur = line[5:]
        elif line.lower().startswith("hunk #") and "FAILED" in line:
            out.append("%s %s" % (cur or "?", line[0].lower() + line[1:].rstrip(".")))
        elif "can't find file" in line or "No file to patch" in line:
            out.append(line)
    if out:
        return ", ".join(out)
    return text.strip().splitlines()[-1] if text.strip() else "?"


def failure(r):
    """What a failed scripts/convert-drivers said went wrong."""
    text = r.stdout + r.stderr
    for line in text.splitlines():
        if line.startswith("convert-drivers: patch ") and "does not apply" in line:
            patch = line[len("convert-drivers: patch "):].split(" does not apply")[0]
            return "patch %s does not apply: %s" % (shown(patch), hunks(text))
    tail = [line for line in r.stdout.splitlines() if line.startswith("convert: ")]
    return "convert exited %d%s" % (r.returncode, (": " + tail[-1]) if tail else "")


def convert(args, rep, build):
    """Convert drivers/legacy (or take args.converted); (tree, clean?)."""
    rep.step("Convert: semantic patches + design patches, drivers/legacy -> "
             "build/demo/converted")
    out = os.path.join(build, "converted")
    stats_file = os.path.join(build, "convert-stats.json")
    stats = {}
    if args.converted:
        say("using the converted tree given: %s" % args.converted)
        shutil.rmtree(out, ignore_errors=True)
        # fresh times, not the given tree's: the driver objects of an
        # earlier demo here are older than these files, and rebuilt
        shutil.copytree(args.converted, out, copy_function=shutil.copy)
        ok = True
        for p in args.design_patch:
            say("design patch: %s" % os.path.basename(p))
            apply_patch(p, out)
    else:
        cmd = [os.path.join(runner.TOP, "scripts", "convert-drivers"), out, stats_file]
        for p in args.design_patch:
            cmd += ["--patch", p]
        r = subprocess.run(cmd, capture_output=True, text=True)
        sys.stdout.write(r.stdout)
        if r.returncode:
            sys.stdout.write(r.stderr)
            raise StepFailed("conversion", failure(r))
        ok = True
        try:
            with open(stats_file) as f:
                stats = json.load(f)
        except (OSError, ValueError):
            stats = {}

    drift = {}
    committed = os.path.join(runner.TOP, "drivers", "converted")
    r = subprocess.run(["diff", "-r", "-q", out, committed], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        # "Files A and B differ" / "Only in X: f"
        name = line.split()[1] if line.startswith("Files") else line.split(": ")[-1]
        drift.setdefault(driver_of_file(name), []).append(
            os.path.relpath(name, out) if name.startswith(out) else name)

    per = {}
    for path, info in (stats.get("files") or {}).items():
        d = per.setdefault(driver_of_file(path), {"rules": {}, "residue": 0})
        for rule, n in (info.get("rules") or {}).items():
            d["rules"][rule] = d["rules"].get(rule, 0) + n
        d["residue"] += len(info.get("residue") or [])
    rows = []
    for drv in [d for d in runner.driver_names() if d in args.drivers] + ["headers"]:
        d = per.get(drv, {"rules": {}, "residue": 0})
        matched = ", ".join("%s %d" % (k, v) for k, v in sorted(d["rules"].items()) if v)
        rows.append([drv, matched or "-", d["residue"],
                     "DRIFT: " + " ".join(drift[drv]) if drv in drift else "none"])
    rep.data["conversion"] = {"ok": ok, "drivers": per, "drift": drift}
    rep.section("Conversion", ["driver", "idioms matched (rule: count)", "residue (lines)",
                               "drift from drivers/converted"], rows)
    return out, ok and not drift
