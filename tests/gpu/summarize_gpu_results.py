#!/usr/bin/env python3
"""Summarises run-gpu-checks.sh's results against the CUDA backend's targets (d = 64, M = 64,
positive features, simrf): GPU ≥ 50× the CPU backend on all cores, ≥ 10× the PyTorch reference,
≥ 50% of the random-number ceiling. Prints feature evaluations per second and the ratios; exits 1
when a measured ratio misses its target.

usage: summarize_gpu_results.py RESULTS_DIR
"""
import json
import os
import sys


def rates(path):
    """{benchmark run name: features_per_second} of a Google Benchmark JSON file (medians when
    repetitions were aggregated)."""
    with open(path) as f:
        data = json.load(f)
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") not in (None, "median"):
            continue
        name = b["run_name"] if "run_name" in b else b["name"]
        if "features_per_second" in b:
            out[name] = b["features_per_second"]
    return out


def find(table, prefix):
    for name, value in table.items():
        if name.startswith(prefix):
            return value
    return None


def main():
    results = sys.argv[1]
    table = rates(os.path.join(results, "gpu_benchmark.json"))
    gpu = find(table, "cuda/pos_simrf")
    cpu = find(table, "cpu/pos_simrf")
    bound = find(table, "drawBound/pos_simrf")
    torch_rate = None
    torch_path = os.path.join(results, "torch_reference.json")
    if os.path.exists(torch_path):
        with open(torch_path) as f:
            torch_rate = next(r["features_per_second"] for r in json.load(f)
                              if r["coupling"] == "simrf")
    print("feature evaluations per second (pos, simrf, d = 64, M = 64):")
    for label, value in [("CUDA backend", gpu), ("CPU backend, all cores", cpu),
                         ("PyTorch reference", torch_rate), ("random-number ceiling", bound)]:
        print(f"  {label:24s} {value:.4g}" if value else f"  {label:24s} not measured")
    missed = False
    for label, denominator, target in [("GPU / CPU", cpu, 50.0), ("GPU / PyTorch", torch_rate, 10.0),
                                       ("GPU / ceiling", bound, 0.5)]:
        if gpu and denominator:
            ratio = gpu / denominator
            ok = ratio >= target
            missed |= not ok
            print(f"  {label:15s} {ratio:8.3g}  (target ≥ {target:g}: {'met' if ok else 'MISSED'})")
        else:
            print(f"  {label:15s} not measured")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
