#!/usr/bin/env python3
"""Speed of RFScope's Monte Carlo engine against NumPy on identical work, ratios from one run:
empirical MSE of the positive-feature (FAVOR+) estimator at one pair, d = 64, M = 64, couplings
iid, orf and simrf.

usage: compare_with_numpy.py BENCHMARK_BINARY [--before OLD_BINARY] [--expert-trials N]
                             [--authors-trials N] [--targets SET,SET,...]
  BENCHMARK_BINARY: build/<dir>/tests/benchmarks/montecarlo/montecarlo_benchmark
  OLD_BINARY: the same program from an earlier build, measured in the same run (before/after)
  --targets: also measure with the SIMD kernels capped at each instruction set (RFSCOPE_SIMD:
    scalar, sse4, avx2, avx512; those this CPU lacks are reported and left out), one table per
    set with its own ceiling, in the same run
Needs NumPy and SciPy (Debian: python3-numpy python3-scipy, /usr/bin/python3).

Compares with two NumPy programs: numpy_expert.py (vectorised over trials, samples only the
projections the estimator uses — the one to beat) and numpy_reference.py (the SimRF authors'
style: full ω matrices, one ortho_group per block). The expert NumPy runs before and after the
benchmark and its mean is used, so that a change of machine load between them shows (both rates
are printed). Prints trials/s of each, the speed-ups on one core (wall clock, and CPU time, which
other load disturbs less), the 1 → 2 thread scaling, the CPU ceiling (ceiling* benchmarks: only
the random numbers and e^x) and the fraction of it reached (by CPU time), the i.i.d. ceiling with
the trials' normal transform (Box–Muller) and without any (Philox and e^x alone) as multiples of
the expert NumPy, the MSEs (they must agree) and the load average before and after.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core for NumPy too
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import comparison_workload  # noqa: E402
import numpy_expert  # noqa: E402
import numpy_reference  # noqa: E402

COUPLINGS = ("iid", "orf", "simrf")
BENCHMARK_TRIALS = {"iid": 200000, "orf": 100000, "simrf": 100000}  # monte_carlo_benchmark.cpp


def rfscope_rates(binary, simd=None):
    env = dict(os.environ)
    if simd:
        env["RFSCOPE_SIMD"] = simd
    out = subprocess.run([binary, "--benchmark_filter=^(pos(Iid|Orf|Simrf)/|ceiling)",
                          "--benchmark_format=json", "--benchmark_repetitions=3",
                          "--benchmark_report_aggregates_only=true"],
                         check=True, capture_output=True, text=True, env=env).stdout
    names = {"posIid": "iid", "posOrf": "orf", "posSimrf": "simrf",
             "ceilingIid": "iid", "ceilingOrf": "orf", "ceilingSimrf": "simrf",
             "ceilingIidNoTransform": "iid"}
    transforms = {"ceilingIidNoTransform": "no transform"}
    rates = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        parts = b["run_name"].split("/")
        if parts[0] not in names:  # a benchmark of another build that this script does not compare
            continue
        coupling = names[parts[0]]
        if parts[0].startswith("ceiling"):  # 200000 trials per iteration, on the calling thread
            key = transforms.get(parts[0], "ceiling")
            rates[(coupling, key)] = (b["trials_per_second"], 200000 / (b["cpu_time"] / 1000.0))
            continue
        threads = int(parts[1])
        # cpu_time: the calling thread's, which does all the work on 1 thread (unit: ms).
        cpu_rate = BENCHMARK_TRIALS[coupling] / (b["cpu_time"] / 1000.0)
        rates[(coupling, threads)] = (b["trials_per_second"], b.get("label", ""), cpu_rate)
    return rates


def expert_rates(x, y, trials):
    result = {}
    for coupling in COUPLINGS:
        rng = np.random.default_rng(7)
        start, cpu_start = time.perf_counter(), time.process_time()
        mse = numpy_expert.empirical_mse(coupling, x, y, comparison_workload.M, trials, rng)
        result[coupling] = (trials / (time.perf_counter() - start),
                            trials / (time.process_time() - cpu_start), mse)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--before", help="an earlier build's montecarlo_benchmark")
    parser.add_argument("--expert-trials", type=int, default=200000)
    parser.add_argument("--authors-trials", type=int, default=1000)
    parser.add_argument("--targets", default="", help="comma-separated RFSCOPE_SIMD sets")
    args = parser.parse_args()
    m = comparison_workload.M
    x, y = comparison_workload.workload_pair()
    load_before = os.getloadavg()
    before = expert_rates(x, y, args.expert_trials)
    rates = rfscope_rates(args.binary)
    old = rfscope_rates(args.before) if args.before else None
    per_target = {}
    for target in filter(None, args.targets.split(",")):
        try:
            per_target[target] = rfscope_rates(args.binary, target)
        except subprocess.CalledProcessError as e:
            per_target[target] = e.stderr.strip() or f"exit {e.returncode}"
    after = expert_rates(x, y, args.expert_trials)
    authors = {}
    for coupling in COUPLINGS:
        rng = np.random.RandomState(7)
        start = time.perf_counter()
        numpy_reference.empirical_mse(coupling, x, y, m, args.authors_trials, rng)
        authors[coupling] = args.authors_trials / (time.perf_counter() - start)
    load_after = os.getloadavg()

    print(f"load average (1, 5, 15 min): before {load_before[0]:.2f} {load_before[1]:.2f} "
          f"{load_before[2]:.2f}, after {load_after[0]:.2f} {load_after[1]:.2f} "
          f"{load_after[2]:.2f}")
    print("trials per second, one core unless '2 thr'; speed-ups over the expert NumPy "
          "(wall clock, and CPU time)")
    print(f"{'coupling':8s} {'NumPy authors':>13s} {'NumPy expert':>20s} {'RFScope':>9s} "
          f"{'2 thr':>9s} {'speed-up':>9s} {'CPU':>6s} {'ceiling':>9s} {'of ceil.':>8s} "
          f"{'scaling':>8s}  MSE expert / RFScope")
    for coupling in COUPLINGS:
        wall = 0.5 * (before[coupling][0] + after[coupling][0])
        cpu = 0.5 * (before[coupling][1] + after[coupling][1])
        one, label, one_cpu = rates[(coupling, 1)]
        two = rates[(coupling, 2)][0]
        ceiling = rates.get((coupling, "ceiling"))
        mse = label.split()[0].removeprefix("mse=") if label else "?"
        expert_range = f"{before[coupling][0]:.0f}/{after[coupling][0]:.0f}"
        # The fraction of the ceiling from CPU times (the same thread does both on one core).
        ceiling_text = (f"{ceiling[0]:9.0f} {one_cpu / ceiling[1]:7.0%}" if ceiling
                        else f"{'-':>9s} {'-':>7s}")
        print(f"{coupling:8s} {authors[coupling]:13.0f} {expert_range:>20s} {one:9.0f} {two:9.0f} "
              f"{one / wall:8.2f}x {one_cpu / cpu:5.2f}x {ceiling_text} "
              f"{two / one:7.2f}x  {before[coupling][2]:.5g} / {mse}")
    cpu = 0.5 * (before["iid"][1] + after["iid"][1])
    for transform in ("ceiling", "no transform"):
        if ("iid", transform) in rates:
            rate = rates[("iid", transform)][1]
            name = "Box-Muller (the trials' own)" if transform == "ceiling" else transform
            print(f"iid ceiling, {name}: {rate:.0f} trials/s of CPU time, {rate / cpu:.2f}x the "
                  f"expert NumPy")
    for target, target_rates in per_target.items():
        if isinstance(target_rates, str):
            print(f"RFSCOPE_SIMD={target}: not measured ({target_rates})")
            continue
        print(f"RFSCOPE_SIMD={target} (same run):")
        for coupling in COUPLINGS:
            cpu = 0.5 * (before[coupling][1] + after[coupling][1])
            one, label, one_cpu = target_rates[(coupling, 1)]
            ceiling = target_rates.get((coupling, "ceiling"))
            mse = label.split()[0].removeprefix("mse=") if label else "?"
            ceiling_text = (f"ceiling {ceiling[1]:.0f} trials/s of CPU time "
                            f"({ceiling[1] / cpu:.2f}x NumPy), {one_cpu / ceiling[1]:.0%} of it"
                            if ceiling else "no ceiling")
            print(f"{coupling:8s} {one_cpu:9.0f} trials/s of CPU time, {one_cpu / cpu:.2f}x the "
                  f"expert NumPy, {ceiling_text}; MSE {mse}")
    if old:
        print("before (OLD_BINARY, same run):")
        for coupling in COUPLINGS:
            wall = 0.5 * (before[coupling][0] + after[coupling][0])
            cpu = 0.5 * (before[coupling][1] + after[coupling][1])
            one, _, one_cpu = old[(coupling, 1)]
            two = old[(coupling, 2)][0]
            print(f"{coupling:8s} {one:9.0f} trials/s, 2 thr {two:9.0f}, {one / wall:.2f}x the "
                  f"expert NumPy (CPU {one_cpu / cpu:.2f}x), now {rates[(coupling, 1)][0] / one:.2f}x "
                  f"faster")

if __name__ == "__main__":
    main()
