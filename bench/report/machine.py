"""The machine a run was made on, and how loaded it was."""

import os
import platform
import time


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def describe(load_start, quick, elapsed):
    return {"cpus": len(os.sched_getaffinity(0)), "cpu": cpu_model(),
            "kernel": platform.release(), "load_start": load_start,
            "load_end": load_average(), "quick": quick, "elapsed_s": elapsed,
            "date": time.strftime("%Y-%m-%d %H:%M:%S"),
            "shim_debug": "0 (pending-work registry off; only the workqueue has it)"}
