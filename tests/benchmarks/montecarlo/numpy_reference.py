#!/usr/bin/env python3
"""What a user would otherwise run: the empirical MSE of the positive-feature (FAVOR+) estimator
of the Gaussian kernel at one pair, written the way the SimRF authors' NumPy code builds features
(NumPy's legacy RandomState as in their code, full ω matrices, one scipy ortho_group draw per
orthogonal or simplex block, χ_d norms, each input's feature vector computed separately).
Same workload as montecarlo_benchmark: d = 64, M = 64, x_i = 0.1 sin(i+1), y_i = 0.1 cos(2i+1).

usage: numpy_reference.py [--trials T] [--coupling iid|orf|simrf ...] [--json]
Prints, per coupling, the MSE, seconds, trials/s and feature evaluations/s.
"""
import numpy as np
from scipy.stats import ortho_group

from comparison_workload import command_line


def simplex_directions(d):
    """Rows: unit vectors at pairwise cosine -1/(d-1) (SimRF eq. 9, corrected normalisation)."""
    ones = np.ones(d)
    ones[-1] = 0.0
    s = np.sqrt(d / (d - 1)) * np.eye(d) - (np.sqrt(d) + 1) / (d - 1) ** 1.5 * ones
    s[:, -1] = 0.0
    s[-1] = ones / np.sqrt(d - 1)
    return s


def draw_block(coupling, d, m, rng, simplex):
    if coupling == "iid":
        return rng.normal(0.0, 1.0, (m, d))
    norms = np.sqrt(rng.chisquare(d, size=d))
    rotation = ortho_group.rvs(d, random_state=rng)
    directions = rotation if coupling == "orf" else simplex @ rotation
    return (norms[:, None] * directions)[:m]


def positive_features(w, u):
    return np.exp(w @ u - u @ u) / np.sqrt(w.shape[0])


def empirical_mse(coupling, x, y, m, trials, rng):
    d = x.size
    simplex = simplex_directions(d)
    exact = np.exp(-0.5 * np.sum((x - y) ** 2))
    squared_errors = 0.0
    for _ in range(trials):
        w = np.vstack([draw_block(coupling, d, min(d, m - start), rng, simplex)
                       for start in range(0, m, d)])
        estimate = positive_features(w, x) @ positive_features(w, y)
        squared_errors += (estimate - exact) ** 2
    return squared_errors / trials


def main():
    command_line(__doc__.splitlines()[0], empirical_mse, np.random.RandomState, default_trials=2000)


if __name__ == "__main__":
    main()
