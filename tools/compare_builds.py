"""Two builds of sm5sim side by side on the eight example workloads: a plain
run on one worker thread, a profiled run (`--profile`) and a checked run
(`check`), each the dispatch time the job's `--json` reports (its dispatch
steps' `seconds`; loading and expectations not counted).

    python tools/compare_builds.py BEFORE AFTER [--repeat R] [--modes plain,profile,check]
                                   [--before-args ARGS] [--after-args ARGS]

BEFORE and AFTER are `sm5sim` binaries (e.g. a release build of an older
commit in a git worktree, and `target/release/sm5sim`), or one binary
twice with other options on each side (`--before-args "--compile off"`:
words added to each of that side's commands). The two alternate
on every job and mode, in turns (before first on even rounds, after first
on odd ones), so that load from elsewhere falls on both. The table gives
per job and mode the median and the best of each, the ratios after /
before, and the spread of the before build's own runs (slowest / fastest):
a ratio inside that spread is noise. Last, the geometric mean of the
median ratios per mode. This script only reports; nothing here is a
timed assertion.
"""

import argparse
import json
import math
import statistics
import subprocess
from pathlib import Path

WORKLOADS = [
    "histogram",
    "global_histogram",
    "reduce",
    "scan",
    "matmul",
    "cas_float_add",
    "saxpy_structured",
    "mandelbrot",
]
MODES = {
    "plain": ["run", "--threads", "1", "--json"],
    "profile": ["run", "--threads", "1", "--profile", "--json"],
    "check": ["check", "--json"],
}
ROOT = Path(__file__).resolve().parent.parent


def dispatch_seconds(exe, workload, mode, extra=()):
    """The dispatch steps' seconds of one run of the workload's job, with
    `extra` words added to the command."""
    args = MODES[mode]
    job = ROOT / "examples" / workload / f"{workload}.toml"
    out = subprocess.run(
        [exe, args[0], str(job), *args[1:], *extra], capture_output=True, text=True, check=False
    ).stdout
    steps = json.loads(out)["steps"]
    return sum(s.get("seconds") or 0.0 for s in steps if s.get("kind") == "dispatch")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--repeat", type=int, default=21)
    p.add_argument("--modes", default="plain,profile,check")
    p.add_argument("--before-args", default="", help="words added to BEFORE's commands")
    p.add_argument("--after-args", default="", help="words added to AFTER's commands")
    a = p.parse_args()
    extra = {"before": a.before_args.split(), "after": a.after_args.split()}
    modes = a.modes.split(",")
    times = {(w, m): {"before": [], "after": []} for w in WORKLOADS for m in modes}
    for r in range(a.repeat):
        for w in WORKLOADS:
            for m in modes:
                order = [("before", a.before), ("after", a.after)]
                for tag, exe in order if r % 2 == 0 else reversed(order):
                    times[(w, m)][tag].append(dispatch_seconds(exe, w, m, extra[tag]))
    print(
        f"| job / mode | before median | after median | median a/b | best a/b | before spread |"
    )
    print("|---|---|---|---|---|---|")
    ratios = {m: [] for m in modes}
    for (w, m), t in times.items():
        b, f = t["before"], t["after"]
        med = statistics.median(f) / statistics.median(b)
        ratios[m].append(med)
        print(
            f"| {w} / {m} | {statistics.median(b) * 1e3:.1f} ms | "
            f"{statistics.median(f) * 1e3:.1f} ms | {med:.2f} | {min(f) / min(b):.2f} | "
            f"{max(b) / min(b):.2f} |"
        )
    for m, rs in ratios.items():
        g = math.exp(sum(map(math.log, rs)) / len(rs))
        print(f"geometric mean of the median ratios, {m}: {g:.3f}")


if __name__ == "__main__":
    main()
