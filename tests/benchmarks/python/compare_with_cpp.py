#!/usr/bin/python3
"""rfscope.variance on 10,000 pairs against the C++ loop alone (variance_loop_benchmark), in one run.

usage: PYTHONPATH=build/release/app/python tests/benchmarks/python/compare_with_cpp.py \
           build/release/tests/benchmarks/python/variance_loop_benchmark
Prints, per case, the C++ loop's CPU time (median of 5), the Python call's (process CPU time,
best of 5 timeit repeats) and their ratio.
"""

import json
import subprocess
import sys
import time
import timeit

import numpy as np

import rfscope

PAIRS, D, M = 10000, 16, 64
CASES = {"pos_iid": ("pos", "iid"), "trig_iid": ("trig", "iid"), "oprf_iid": ("oprf", "iid"),
         "pos_orf": ("pos", "orf")}


def main():
    program = sys.argv[1]
    report = json.loads(subprocess.run(
        [program, "--benchmark_format=json", "--benchmark_repetitions=5",
         "--benchmark_report_aggregates_only=true"],
        check=True, capture_output=True, text=True).stdout)
    cpp = {}
    for b in report["benchmarks"]:
        if b.get("aggregate_name") == "median":
            case = b["run_name"].split("/")[-1]
            cpp[case] = b["cpu_time"] / {"ms": 1e3, "us": 1e6, "ns": 1e9}[b["time_unit"]]
    rng = np.random.default_rng(17)
    xs, ys = 0.3 * rng.standard_normal((2, PAIRS, D))
    print(f"{'case':10} {'C++ loop':>10} {'Python':>10} {'ratio':>6}")
    for case, (mechanism, coupling) in CASES.items():
        call = lambda: rfscope.variance(mechanism, xs, ys, coupling=coupling, m=M)  # noqa: E731
        # CPU time of the whole process (the work runs on a worker thread), as the C++ side's
        # CPU time: the shared machine's load disturbs it least.
        python = min(timeit.repeat(call, number=3, repeat=5, timer=time.process_time)) / 3
        print(f"{case:10} {cpp[case] * 1e3:8.2f}ms {python * 1e3:8.2f}ms {python / cpp[case]:6.2f}")


if __name__ == "__main__":
    main()
