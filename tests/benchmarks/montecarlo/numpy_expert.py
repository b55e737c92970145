#!/usr/bin/env python3
"""The FAVOR+ MSE of montecarlo_benchmark as an expert would write it in vectorised NumPy: many
trials at once, and only the projections the estimator uses are sampled.
  iid:   ωᵀ(x + y) ~ N(0, |x + y|²): one normal per feature.
  orf:   a block's rows are χ_d norms times the rows of a Haar rotation R, and their projections
         on e = (x + y)/|x + y| are the entries of R e, a uniformly random unit vector: one
         Gaussian vector, normalised, times d χ_d norms.
  simrf: the same with the simplex matrix S applied to that unit vector (S's rows: SimRF eq. 9
         corrected as in the math notes; applied in O(d)).
Generator: NumPy's default_rng (PCG64, ziggurat normals). Same workload as montecarlo_benchmark:
d = 64, M = 64, x_i = 0.1 sin(i+1), y_i = 0.1 cos(2i+1).

usage: numpy_expert.py [--trials T] [--coupling iid|orf|simrf ...] [--json]
Prints, per coupling, the MSE, seconds and trials/s (one core: run it with OMP/BLAS threads at 1;
nothing here calls BLAS).
"""
import numpy as np

from comparison_workload import command_line


def simplex_rows(u):
    """S u for each row u of the (trials, d) array u (SimRF eq. 9, corrected normalisation)."""
    d = u.shape[1]
    head = u[:, :-1].sum(axis=1, keepdims=True)
    c1 = np.sqrt(d / (d - 1))
    c2 = (np.sqrt(d) + 1) / (d - 1) ** 1.5
    out = np.empty_like(u)
    out[:, :-1] = c1 * u[:, :-1] - c2 * head
    out[:, -1:] = head / np.sqrt(d - 1)
    return out


def projections(coupling, d, m, trials, rng):
    """ωⱼᵀe for every trial (rows) and feature (columns), e a fixed unit vector."""
    if coupling == "iid":
        return rng.standard_normal((trials, m))
    blocks = []
    for start in range(0, m, d):
        rows = min(d, m - start)
        u = rng.standard_normal((trials, d))
        u /= np.sqrt(np.einsum("ij,ij->i", u, u))[:, None]
        if coupling == "simrf":
            u = simplex_rows(u)
        norms = np.sqrt(rng.chisquare(d, size=(trials, rows)))
        blocks.append(norms * u[:, :rows])
    return np.hstack(blocks) if len(blocks) > 1 else blocks[0]


def empirical_mse(coupling, x, y, m, trials, rng, chunk=8192):
    d = x.size
    s = x + y
    sum_norm = np.sqrt(s @ s)
    log_constant = -(x @ x) - (y @ y) - np.log(m)
    exact = np.exp(-0.5 * np.sum((x - y) ** 2))
    squared_errors = 0.0
    for start in range(0, trials, chunk):
        n = min(chunk, trials - start)
        w = projections(coupling, d, m, n, rng)
        estimates = np.exp(sum_norm * w + log_constant).sum(axis=1)
        squared_errors += np.sum((estimates - exact) ** 2)
    return squared_errors / trials


def main():
    command_line(__doc__.splitlines()[0], empirical_mse, np.random.default_rng,
                 default_trials=200000)


if __name__ == "__main__":
    main()
