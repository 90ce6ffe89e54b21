#!/usr/bin/env python3
"""tree - a whole 2.4 tree: make demo TREE=path/to/linux-2.4

usage: tree.py TREE [--out DIR] [--jobs N] [--quick] [--only NAME...]

1. Convert the tree once (semantic-patches/convert -o, the whole tree,
   as a maintainer would), keeping what convert said of each file.
2. Find every file that uses the task queue, and take those the sandbox
   can run: today the tty drivers (a file that registers a tty driver,
   tty_register_driver()); each other one is listed with why it is not
   taken, by what it uses (a network driver, ISDN, a block driver, a line
   discipline...), nothing named for one driver.
3. Run make demo SRC= on each driver taken (demo.py --src, QUICK unless
   --full), its files taken from the tree's conversion, several at once
   over the CPUs (each demo a share of them, DEMO_JOBS), each in a build
   directory of its own.
4. Print one table: file, built, module in, handler ran, call sites
   reached on both sides, teardown functions reached on both sides, the
   verdict and its first reason; then what was not taken, with why.  The
   table is also in OUT/tree.md and OUT/tree.json.
Exits 0 when every driver taken ends PASS.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "drivers", "runner"))
sys.dont_write_bytecode = True

import runner  # noqa: E402
import source  # noqa: E402

TOP = runner.TOP
TTY = re.compile(r"\btty_register_driver\s*\(")
TTY_CORE = re.compile(r"^int\s+tty_register_driver\s*\(", re.M)
# the subsystems a file belongs to before its being a tty driver (a USB
# serial converter registers a tty driver through the USB core)
FIRST = [
    (re.compile(r"^drivers/isdn/"), None,
     "ISDN (isdn4linux): the sandbox has no ISDN exerciser yet"),
    (re.compile(r"^drivers/usb/"), re.compile(r"\busb_register\s*\("),
     "a USB driver: the sandbox has no USB core"),
    (None, TTY_CORE, "the tty layer itself: the sandbox's own (drivers/tty-core/) stands "
     "for it"),
]
# what a file that is not a tty driver uses instead, in this order: why
# the sandbox does not take it (yet)
OTHERS = [
    (re.compile(r"^drivers/isdn/"), None,
     "ISDN (isdn4linux): the sandbox has no ISDN exerciser yet"),
    (None, re.compile(r"\b(register_netdev|init_etherdev|alloc_etherdev|netif_rx|"
                      r"dev_alloc_skb|register_netdevice)\s*\("),
     "a network driver: the sandbox has its net core but no net exerciser yet"),
    (None, re.compile(r"\btty_register_ldisc\s*\("),
     "a line discipline: the exerciser plays tty drivers"),
    (None, re.compile(r"\b(register_blkdev|blk_init_queue|blk_queue_make_request)\s*\("),
     "a block driver: the sandbox has no block layer"),
    (None, re.compile(r"\busb_register\s*\("), "a USB driver: the sandbox has no USB core"),
    (None, re.compile(r"\bscsi_(register|add_host)|\bscsi_register_module\s*\("),
     "a SCSI driver: the sandbox has no SCSI midlayer"),
    (re.compile(r"^(drivers/sound|sound)/"), None, "sound: the sandbox has no sound core"),
    (re.compile(r"^fs/"), None, "a filesystem: the sandbox has no VFS beyond files"),
    (re.compile(r"^(kernel|mm|net|arch|init|lib|ipc)/"), None,
     "kernel core, not a driver"),
]
NOT_A_MODULE = "no module of its own (no init_module or module_init): part of another file's"


def subsystem(rel, text, rules):
    """The first of @rules (path, API, why) @rel or its @text meets: why."""
    for path, api, why in rules:
        if (path and path.search(rel)) or (api and api.search(text)):
            return why
    return None


def other_arch(tree, text):
    """The first <asm/...> header @text includes unconditionally that the
    tree has not for i386, the sandbox's architecture, nor the sandbox:
    the file is another architecture's; None if none."""
    asm = os.path.join(tree, "include", "asm-i386")
    if not os.path.isdir(asm):
        asm = os.path.join(tree, "include", "asm")  # a tree configured for i386
    depth = 0
    for line in text.splitlines():
        m = re.match(r"\s*#\s*(if|ifdef|ifndef|endif|include)\b\s*(.*)", line)
        if not m:
            continue
        what = m.group(1)
        if what.startswith("if"):
            depth += 1
        elif what == "endif":
            depth = max(0, depth - 1)
        elif depth == 0:
            h = re.match(r"<asm/([^>]+)>", m.group(2))
            if h and not os.path.exists(os.path.join(asm, h.group(1))) \
                    and not any(os.path.exists(os.path.join(d, "asm", h.group(1)))
                                for d in source.OURS):
                return "asm/" + h.group(1)
    return None


def why_not(rel, text):
    """Why a task-queue file that registers no tty driver is not taken."""
    for path, api, why in OTHERS:
        if (path and path.search(rel)) or (api and api.search(text)):
            return why
    if not re.search(r"\b(init_module|module_init)\b", text):
        return NOT_A_MODULE
    return "another subsystem: it registers no tty driver, which the exerciser plays"


def candidates(tree):
    """([taken: tree-relative .c paths], [(not taken, why)]) of the task
    queue's users in @tree."""
    taken, left = [], []
    for d, dirs, files in os.walk(tree):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            path = os.path.join(d, f)
            rel = os.path.relpath(path, tree)
            with open(path, errors="replace") as fh:
                text = fh.read()
            if not source.TASK_QUEUE.search(text):
                continue
            first = subsystem(rel, text, FIRST)
            arch = other_arch(tree, text)
            if arch:
                left.append((rel, "another architecture's: <%s> is not i386's" % arch))
            elif first:
                left.append((rel, first))
            elif TTY.search(text) and not rel.startswith(("kernel/", "fs/", "net/", "arch/")):
                taken.append(rel)
            else:
                left.append((rel, why_not(rel, text)))
    return taken, left


def convert_tree(tree, out, jobs):
    """The whole tree through convert once: (its converted copy, the file
    holding what convert printed)."""
    conv = os.path.join(out, "converted")
    log = os.path.join(out, "convert.log")
    shutil.rmtree(conv, ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    cmd = [os.path.join(TOP, "semantic-patches", "convert"), "-q", "-o", conv,
           "--jobs", str(jobs),
           "-I", os.path.join(TOP, "drivers", "tty-core", "legacy", "include"),
           "-I", os.path.join(TOP, "shim", "include-2.4"), "."]
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=tree)
    with open(log, "w") as f:
        f.write(r.stdout)
    last = [x for x in r.stdout.splitlines() if x.startswith("convert: ")]
    said = last[-1] if last else "exit %d" % r.returncode
    print("convert: the tree in %.0f s: %s" % (time.time() - t, said), flush=True)
    if r.returncode not in (0, 1) or not os.path.isdir(conv):
        sys.stdout.write(r.stderr[-3000:])
        raise SystemExit("tree: convert exited %d on %s (above)" % (r.returncode, tree))
    return conv, log


def one_demo(tree, rel, conv, log, out, quick, share):
    """make demo SRC= on one driver: (its report, or None, and its output)."""
    name = source.identifier(os.path.basename(rel)[:-2])
    build = os.path.join(out, "demo", name)
    report = os.path.join(build, "report")
    cmd = [sys.executable, os.path.join(HERE, "demo.py"), "--src", os.path.join(tree, rel),
           "--converted-tree", conv, "--convert-log", log, "--build", build, "--out", report]
    if quick:
        cmd.append("--quick")
    env = dict(os.environ, DEMO_JOBS=str(share))
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace", env=env)
    with open(os.path.join(build, "demo.log"), "w") as f:
        f.write(r.stdout + r.stderr)
    try:
        with open(os.path.join(report, "report.json")) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        rep = None
    return rel, name, rep, r.stdout + r.stderr, time.time() - t


def reached(rows):
    """"n/m": the rows (call sites or teardown functions) reached on both
    sides, of all."""
    if not rows:
        return "-"
    return "%d/%d" % (sum(1 for r in rows if not r.get("not_checked")), len(rows))


def row_of(rel, name, rep, log):
    """One line of the table for one driver's demo."""
    if rep is None:
        last = [x for x in log.splitlines() if x.strip()]
        return [rel, "?", "?", "?", "-", "-", "FAIL", (last[-1] if last else "no report")[:160]]
    verdict = rep.get("verdict") or {}
    step = verdict.get("failed_step")
    src = (rep.get("sources") or {}).get(name) or {}
    found = src.get("found") or {}
    cov = ((rep.get("coverage") or {}).get("drivers") or {}).get(name) or {}
    built = "no" if step in ("build", "conversion", "source") else "yes"
    module_in = "yes" if found.get("init") == 0 and found.get("registered") else \
        ("no (init %s)" % found.get("init") if found else "-")
    handler = "yes" if found.get("handler_ran") else ("no" if found else "-")
    first = ""
    for s in rep.get("scenarios") or []:
        if s.get("verdict") == "DIFFERENT":
            first = "%s: %s" % (s["scenario"], (s.get("why") or "")[:140])
            break
    if not first:
        text = verdict.get("text", "")
        first = text.split(": ", 1)[1] if ": " in text else text
    return [rel, built, module_in, handler, reached(cov.get("sites")),
            reached(cov.get("teardown")), "PASS" if verdict.get("ok") else "FAIL",
            first[:200]]


def table(head, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    out = ["  ".join(str(x).ljust(w) for x, w in zip(head, widths)).rstrip(),
           "  ".join("-" * w for w in widths)]
    out += ["  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(out)


HEAD = ["file", "built", "module in", "handler ran", "call sites", "teardown", "verdict",
        "first reason"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tree", help="a Linux 2.4 tree (its top: Makefile, drivers/, include/)")
    ap.add_argument("--out", default=os.path.join(TOP, "build", "tree"))
    ap.add_argument("--jobs", type=int, default=None,
                    help="demos at once (default: one per two CPUs, at least two)")
    ap.add_argument("--full", action="store_true", help="each demo in full, not QUICK")
    ap.add_argument("--only", action="append", default=[],
                    help="only the drivers of these file names (riscom8.c), repeatable")
    a = ap.parse_args()
    tree = os.path.abspath(a.tree)
    if not os.path.isfile(os.path.join(tree, "Makefile")) or \
            not os.path.isdir(os.path.join(tree, "drivers")):
        ap.error("%s: no kernel tree there (no Makefile and drivers/ at its top)" % a.tree)
    t0 = time.time()
    cpus = runner.cpus()
    jobs = a.jobs or max(2, cpus // 2)
    share = max(1, cpus // jobs)
    out = os.path.abspath(a.out)
    taken, left = candidates(tree)
    if a.only:
        taken = [t for t in taken if os.path.basename(t) in a.only]
    print("tree: %s: %d files use the task queue; %d tty drivers to take, %d not taken"
          % (tree, len(taken) + len(left), len(taken), len(left)), flush=True)
    # what every demo links, built once before they run at once
    err = runner.make("all") or runner.make(
        "all", BUILD=os.path.join(runner.BUILD, "demo", "tsan", "build"),
        SAN="-fsanitize=thread")
    if err:
        sys.stdout.write(err[-3000:])
        return 1
    conv, log = convert_tree(tree, out, cpus)
    rows, pending = [], {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for rel in taken:
            pending[pool.submit(one_demo, tree, rel, conv, log, out, not a.full,
                                share)] = rel
        for fut in concurrent.futures.as_completed(pending):
            rel, name, rep, text, secs = fut.result()
            row = row_of(rel, name, rep, text)
            print("  %-32s %-5s %.0f s: %s" % (rel, row[6], secs, row[7][:110]), flush=True)
            rows.append(row)
    rows.sort()
    print()
    print(table(HEAD, rows))
    print()
    print("Not taken (%d):" % len(left))
    print(table(["file", "why"], left))
    ok = sum(1 for r in rows if r[6] == "PASS")
    summary = "tree: %d tty drivers taken, %d PASS, %d FAIL; %d files not taken; %.0f s" % (
        len(rows), ok, len(rows) - ok, len(left), time.time() - t0)
    print()
    print(summary)
    with open(os.path.join(out, "tree.md"), "w") as f:
        f.write("# make demo TREE=%s\n\n%s\n\n## Not taken\n\n%s\n\n%s\n" % (
            tree, table(HEAD, rows), table(["file", "why"], left), summary))
    with open(os.path.join(out, "tree.json"), "w") as f:
        json.dump({"tree": tree, "taken": [dict(zip(HEAD, r)) for r in rows],
                   "not_taken": [{"file": f_, "why": w} for f_, w in left],
                   "summary": summary}, f, indent=1)
    print("tree: %s, %s, each driver's report under %s" % (
        os.path.relpath(os.path.join(out, "tree.md"), TOP),
        os.path.relpath(os.path.join(out, "tree.json"), TOP),
        os.path.relpath(os.path.join(out, "demo"), TOP)))
    return 0 if ok == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
