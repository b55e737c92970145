#!/usr/bin/env python3
"""The GPU comparison: the same estimator written the idiomatic PyTorch way, on the same GPU.
Positive (FAVOR+) features of the Gaussian kernel at one pair, d = 64, M = 64 (the pair of
comparison_workload.h: x_i = 0.1 sin(i+1), y_i = 0.1 cos(2i+1)), float64, full ω matrices:
one torch.linalg.qr per orthogonal or simplex block (sign-corrected, so Haar), χ_d norms,
SimRF's simplex directions (eq. 9, corrected normalisation), all trials of a batch at once.

usage: torch_reference.py [--trials T] [--batch B] [--coupling iid|orf|simrf ...] [--json]
Prints, per coupling, the MSE, seconds, trials/s and feature evaluations/s.
"""
import argparse
import json
import math
import time

import torch


def comparison_pair(d, device):
    i = torch.arange(d, dtype=torch.float64, device=device)
    return 0.1 * torch.sin(i + 1), 0.1 * torch.cos(2 * i + 1)


def simplex_directions(d, device):
    """Rows: unit vectors at pairwise cosine -1/(d-1)."""
    ones = torch.ones(d, dtype=torch.float64, device=device)
    ones[-1] = 0.0
    s = math.sqrt(d / (d - 1)) * torch.eye(d, dtype=torch.float64, device=device)
    s = s - (math.sqrt(d) + 1) / (d - 1) ** 1.5 * ones
    s[:, -1] = 0.0
    s[-1] = ones / math.sqrt(d - 1)
    return s


def draw_frequencies(coupling, trials, d, m, simplex, device):
    """(trials, m, d) frequency matrices."""
    if coupling == "iid":
        return torch.randn(trials, m, d, dtype=torch.float64, device=device)
    blocks = -(-m // d)
    gaussian = torch.randn(trials * blocks, d, d, dtype=torch.float64, device=device)
    q, r = torch.linalg.qr(gaussian)
    q = q * torch.sign(torch.diagonal(r, dim1=-2, dim2=-1)).unsqueeze(-2)  # Haar
    rows = q.transpose(-1, -2)
    if coupling == "simrf":
        rows = simplex @ rows
    chi2 = torch.distributions.Chi2(torch.tensor(float(d), dtype=torch.float64, device=device))
    norms = chi2.sample((trials * blocks, d)).sqrt()
    w = norms.unsqueeze(-1) * rows
    return w.reshape(trials, blocks * d, d)[:, :m]


def run(coupling, trials, batch, d, m, device):
    x, y = comparison_pair(d, device)
    exact = math.exp(-0.5 * float(((x - y) ** 2).sum()))
    constant = -float(x @ x) - float(y @ y)
    simplex = simplex_directions(d, device)
    squared_errors = torch.zeros((), dtype=torch.float64, device=device)
    torch.cuda.synchronize()
    start = time.perf_counter()
    done = 0
    while done < trials:
        n = min(batch, trials - done)
        w = draw_frequencies(coupling, n, d, m, simplex, device)
        estimates = torch.exp(w @ (x + y) + constant).mean(dim=1)
        squared_errors += ((estimates - exact) ** 2).sum()
        done += n
    torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    return {"coupling": coupling, "trials": trials, "d": d, "m": m,
            "mse": float(squared_errors) / trials, "seconds": seconds,
            "trials_per_second": trials / seconds,
            "features_per_second": trials * m / seconds,
            "device": torch.cuda.get_device_name(device), "torch": torch.__version__}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1 << 20)
    parser.add_argument("--batch", type=int, default=1 << 15)
    parser.add_argument("--coupling", nargs="+", default=["simrf", "orf", "iid"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda")
    torch.manual_seed(1)
    run(args.coupling[0], args.batch, args.batch, 64, 64, device)  # warm-up: kernels, allocator
    results = [run(c, args.trials, args.batch, 64, 64, device) for c in args.coupling]
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for r in results:
            print(f"{r['coupling']:6s} mse={r['mse']:.6g} {r['seconds']:.2f} s "
                  f"{r['features_per_second']:.4g} feature evaluations/s")


if __name__ == "__main__":
    main()
