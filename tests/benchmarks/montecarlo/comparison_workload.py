"""The workload both NumPy programs measure, and their shared command line: the FAVOR+ MSE at one
pair, d = 64, M = 64, x_i = 0.1 sin(i+1), y_i = 0.1 cos(2i+1) (montecarlo_benchmark's own)."""
import argparse
import json
import time

import numpy as np

D = M = 64


def workload_pair():
    i = np.arange(D)
    return 0.1 * np.sin(i + 1.0), 0.1 * np.cos(2.0 * i + 1.0)


def command_line(description, empirical_mse, make_rng, default_trials):
    """Parses --trials/--coupling/--json, times empirical_mse(coupling, x, y, M, trials, rng) for
    each coupling with rng = make_rng(7), and prints the MSE, seconds, trials/s and feature
    evaluations/s (a JSON list with --json)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--trials", type=int, default=default_trials)
    parser.add_argument("--coupling", nargs="+", default=["iid", "orf", "simrf"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    x, y = workload_pair()
    rows = []
    for coupling in args.coupling:
        rng = make_rng(7)
        start = time.perf_counter()
        mse = empirical_mse(coupling, x, y, M, args.trials, rng)
        seconds = time.perf_counter() - start
        rows.append({"coupling": coupling, "trials": args.trials, "mse": mse, "seconds": seconds,
                     "trials_per_second": args.trials / seconds,
                     "features_per_second": args.trials * M / seconds})
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(f"{r['coupling']:6s} mse={r['mse']:.6g} {r['seconds']:.2f} s "
                  f"{r['trials_per_second']:.0f} trials/s "
                  f"{r['features_per_second']:.3g} features/s")
