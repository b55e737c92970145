#!/usr/bin/env python3
"""Speed of RFScope's Monte Carlo engine against the NumPy approach on identical work: empirical
MSE of the positive-feature estimator at one pair, d = 64, M = 64, couplings iid, orf and simrf.

usage: compare_with_numpy.py BENCHMARK_BINARY [--numpy-trials N]
  BENCHMARK_BINARY: build/<dir>/tests/benchmarks/montecarlo/montecarlo_benchmark
Needs a Python with NumPy and SciPy (Debian: python3-numpy python3-scipy, /usr/bin/python3).
Prints trials per second of both, the speed-up on 1 and 2 threads, the 1 → 2 thread scaling and
both MSEs (they estimate the same number, so they must agree within their noise).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import numpy_reference  # noqa: E402


def trials_of(coupling):
    # The trials per benchmark iteration in monte_carlo_benchmark.cpp.
    return {"iid": 200000, "orf": 100000, "simrf": 100000}[coupling]


def rfscope_rates(binary):
    out = subprocess.run([binary, "--benchmark_filter=^pos(Iid|Orf|Simrf)/",
                          "--benchmark_format=json", "--benchmark_repetitions=3",
                          "--benchmark_report_aggregates_only=true"],
                         check=True, capture_output=True, text=True).stdout
    rates = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name, threads = b["run_name"].split("/")[:2]
        coupling = {"posIid": "iid", "posOrf": "orf", "posSimrf": "simrf"}[name]
        # cpu_time is the calling thread's, which does all the work on 1 thread (time unit: ms).
        cpu_rate = trials_of(coupling) / (b["cpu_time"] / 1000.0)
        rates[(coupling, int(threads))] = (b["trials_per_second"], b.get("label", ""), cpu_rate)
    return rates


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--numpy-trials", type=int, default=2000)
    args = parser.parse_args()
    rates = rfscope_rates(args.binary)
    d = m = 64
    i = np.arange(d)
    x, y = 0.1 * np.sin(i + 1.0), 0.1 * np.cos(2.0 * i + 1.0)
    print("trials per second (wall clock); 'CPU' compares CPU time per trial on one thread, which")
    print("other load on the machine disturbs less than wall-clock time")
    print(f"{'coupling':8s} {'NumPy':>8s} {'RFScope 1 thr':>14s} {'2 thr':>10s} "
          f"{'speed-up 1':>11s} {'speed-up 2':>11s} {'CPU':>6s} {'scaling':>8s}  MSE NumPy / RFScope")
    for coupling in ("iid", "orf", "simrf"):
        rng = np.random.RandomState(7)
        start, cpu_start = time.perf_counter(), time.process_time()
        mse = numpy_reference.empirical_mse(coupling, x, y, m, args.numpy_trials, rng)
        numpy_rate = args.numpy_trials / (time.perf_counter() - start)
        numpy_cpu_rate = args.numpy_trials / (time.process_time() - cpu_start)
        one, label, one_cpu = rates[(coupling, 1)]
        two, _, _ = rates[(coupling, 2)]
        print(f"{coupling:8s} {numpy_rate:8.0f} {one:14.0f} {two:10.0f} {one / numpy_rate:10.0f}x "
              f"{two / numpy_rate:10.0f}x {one_cpu / numpy_cpu_rate:5.0f}x {two / one:7.2f}x  "
              f"{mse:.5g} / {label}")


if __name__ == "__main__":
    main()
