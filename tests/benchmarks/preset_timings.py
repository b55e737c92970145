#!/usr/bin/env python3
"""Wall-clock seconds of every preset, the best of a few whole `rfscope-cli run` calls.

Usage: tests/benchmarks/preset_timings.py [--cli PATH] [--baseline PATH] [--repeats N]
                                           [--limit S] [ID ...]

Runs each preset (all of `rfscope-cli list --compact` by default) with `--csv` into a temporary
file, `--repeats` times (default 3), and prints the best wall time per preset, then the presets
slower than `--limit` seconds (default 1.5). Each time is the fastest run's wall time, with the
CPU time (user + system, all threads) of that run. With `--baseline` (another build's rfscope-cli, e.g.
a copy kept beside it before a change), the two programs run alternately, so that both see the
same machine load, and each preset's line shows the baseline's best, the new best and the ratio. The SIMD target is capped at AVX2 (RFSCOPE_SIMD=avx2)
unless RFSCOPE_SIMD is already set, so that machines with AVX-512 time what most users run.
Not part of CTest: run it by hand on a quiet machine.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def presets(cli):
    listing = json.loads(subprocess.run([cli, "list", "--compact"], check=True,
                                        capture_output=True, text=True).stdout)
    return [p["id"] for p in listing["presets"]]


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_runs(clis, preset, repeats, env):
    """Per program, the (wall, CPU) seconds of its fastest run."""
    best = [(float("inf"), 0.0)] * len(clis)
    with tempfile.TemporaryDirectory() as folder:
        csv = os.path.join(folder, "out.csv")
        for _ in range(repeats):
            for i, cli in enumerate(clis):
                cpu = cpu_seconds()
                start = time.perf_counter()
                subprocess.run([cli, "run", "--preset", preset, "--csv", csv], check=True,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                run = (time.perf_counter() - start, cpu_seconds() - cpu)
                best[i] = min(best[i], run)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default="build/release/app/rfscope-cli")
    parser.add_argument("--baseline", help="another rfscope-cli to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--limit", type=float, default=1.5)
    parser.add_argument("ids", nargs="*")
    args = parser.parse_args()
    env = dict(os.environ)
    env.setdefault("RFSCOPE_SIMD", "avx2")
    ids = args.ids or presets(args.cli)
    slow = []
    clis = [args.baseline, args.cli] if args.baseline else [args.cli]
    for preset in ids:
        runs = best_runs(clis, preset, args.repeats, env)
        line = " -> ".join(f"{wall:6.2f} s (CPU {cpu:5.2f} s)" for wall, cpu in runs)
        if args.baseline:
            line += f"  ({runs[1][0] / runs[0][0]:.2f}x)"
        print(f"{preset:40s} {line}", flush=True)
        if runs[-1][0] > args.limit:
            slow.append(preset)
    print(f"slower than {args.limit} s: {', '.join(slow) if slow else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
