#!/usr/bin/env python3
"""Independent check of trig_phase_references.json (run by hand; results are recorded in the
docstring of generate_trig_phase_references.py): Monte Carlo of the random-phase estimator
(1/M) sum_m 2 cos(w_m.x + b_m) cos(w_m.y + b_m) with w drawn i.i.d., in orthogonal blocks (Haar
rotation, chi_d norms) or in simplex blocks (the corrected SimRF eq. 9 simplex, rotated), b i.i.d.
uniform; the sample variance against the stored log Var_M, as a z-score from the sample's fourth
moment. Also the one-feature variance at random (x, y) and the simplex integral against SimRF
eq. (24) as printed (PosRF, +v^2).

Usage: /usr/bin/python3 tests/reference/check_trig_phase_references.py [--quick]
"""

import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
QUICK = "--quick" in sys.argv


def simplex(d):
    """Rows: unit vectors with pairwise cosine -1/(d-1) (SimRF eq. 9 with the corrected factor)."""
    S = np.zeros((d, d))
    ones = np.ones(d)
    ones[-1] = 0
    for i in range(d - 1):
        S[i] = math.sqrt(d / (d - 1)) * np.eye(d)[i] - (math.sqrt(d) + 1) / (d - 1) ** 1.5 * ones
    S[d - 1] = ones / math.sqrt(d - 1)
    return S


def haar(rng, d, n):
    g = rng.standard_normal((n, d, d))
    q, r = np.linalg.qr(g)
    return q * np.sign(np.diagonal(r, axis1=1, axis2=2))[:, None, :]


def draw(rng, coupling, d, M, n):
    """(n, M, d) frequencies."""
    if coupling == "iid":
        return rng.standard_normal((n, M, d))
    blocks = []
    S = simplex(d) if coupling == "simrf" and d > 1 else None
    for _ in range(-(-M // d)):
        rot = haar(rng, d, n)  # columns orthonormal
        dirs = np.transpose(rot, (0, 2, 1)) if S is None else np.einsum("ij,njk->nik", S, np.transpose(rot, (0, 2, 1)))
        norms = np.sqrt(np.sum(rng.standard_normal((n, d, d)) ** 2, 2))
        blocks.append(norms[:, :, None] * dirs)
    return np.concatenate(blocks, 1)[:, :M]


def main():
    refs = json.load(open(os.path.join(HERE, "trig_phase_references.json")))
    rng = np.random.default_rng(20240524)
    assert np.allclose(np.linalg.norm(simplex(5), axis=1), 1)
    zs = []
    for c in refs["coupled"]:
        d, z2 = c["d"], c["diff"]
        x = rng.normal(size=d) * 0.4
        u = rng.normal(size=d)
        y = x + math.sqrt(z2) * u / np.linalg.norm(u)
        for coupling, table in c["log_variance"].items():
            for m, lv in table.items():
                M = int(m)
                trials = (20000 if d >= 64 else 100000) // (4 if QUICK else 1)
                est = np.empty(trials)
                for start in range(0, trials, 2000):
                    n = min(2000, trials - start)
                    W = draw(rng, coupling, d, M, n)
                    b = rng.uniform(0, 2 * math.pi, (n, M))
                    est[start:start + n] = np.mean(2 * np.cos(W @ x + b) * np.cos(W @ y + b), 1)
                dev = est - math.exp(-z2 / 2)
                var = np.mean(dev ** 2)
                se = math.sqrt(max(np.mean(dev ** 4) - var ** 2, 1e-300) / trials)
                zs.append((var - math.exp(float(lv))) / se)
                if abs(zs[-1]) > 4:
                    print("  outlier", d, z2, coupling, M, zs[-1])
        print("  d=%d |x-y|^2=%g done" % (d, z2), flush=True)
    zs = np.array(zs)
    print("monte carlo: %d coupled variances, max |z| %.2f, mean z %.3f, std z %.3f"
          % (len(zs), np.max(np.abs(zs)), zs.mean(), zs.std()))


if __name__ == "__main__":
    main()
