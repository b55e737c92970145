#!/usr/bin/env python3
"""High-precision references for dense-exponential random features (writes derf_references.json).

DERF (Gaussian kernel; w ~ N(0, I_d); A symmetric, Q invertible):
  f1(w, x) = D1 exp(w'Aw + w'B1 x + x'C1 x),  f2(w, y) = D2 exp(w'Aw + w'B2 y + y'C2 y),
  B1 = (I-4A)^{1/2} Q, B2 = (I-4A)^{1/2} Q^{-T}, C1 = -(I + Q'Q)/2, C2 = -(I + (Q'Q)^{-1})/2,
  D1 D2 = det(I-4A)^{1/2}  -- the general solution of E f1 f2 = K(x, y) for all x, y (with I-4A > 0);
  finite variance needs I - 8A > 0. Every value below is computed from the plain Gaussian
  integrals (closed_forms_mp.py: E[Z^2] = D1^2 D2^2 exp(2x'C1x + 2y'C2y) det(I-8A)^{-1/2}
  exp(2 z'(I-8A)^{-1} z), z = B1 x + B2 y), not from the per-eigendirection form the C++ code uses.
  Derivations and the parameter optima: README-attention-derf.md.

Tables (40 digits, each evaluated at rising mpmath precision until two precisions agree):
  "explicit"     given A, Q (d = 1..4, scalar and dense A, Q = I and general, A up to 1/8 - 1e-3):
                 log Var Z at (x, y), log E Z^2/K^2 (= g), and the one-feature covariance of two
                 keys sharing the query and w (sign, log|Cov|)
  "data_driven"  sets X, Y (d = 2, 3, 8, 16, 64) and the parameters every variant chooses from
                 them: oprf (CRT eq. 8), sderf (eigen of Sigma_p), aderf (geometric mean + scalar
                 A), aderf-dense (geometric mean + eigen of W): the averaged objective
                 mean_{x in X, y in Y} log(E Z^2 / K^2) at the optimum, the sorted r_l = 1 - 8 a_l,
                 and log Var at the paired (x_i, y_i); gerf (parameters from a numerical
                 minimisation in double precision, stored and evaluated exactly) and pos for
                 comparison. The set "d=64 sigma=1 normal" is the normal regime of variance-vs-sigma
                 (x, y ~ N(0, I_64), 100 pairs).
  "single_pair"  the first two pairs of each data-driven set, each taken alone as the set (what
                 `rfscope-cli analytic --mechanism sderf|aderf --x .. --y ..` chooses): oprf, sderf
                 and aderf objective and log Var. `--single-pairs` (re)computes only this table.

Independent check (check_derf_references.py, results recorded here):
  quadrature of the feature definitions (Gauss-Hermite, d = 1, 2, 24 cases): |log E f1f2 - log K|
    <= 7.1e-15 (unbiasedness), log E Z^2 to 8.7e-15, log E[Z(x, y) Z(x, y2)] to 9.0e-15;
  Monte Carlo of E Z^2 (features built from A and Q; 2e6 draws for the explicit cases at d = 3, 4,
    1e6 for the data-driven sets at d = 2..64 whose tails allow it): 34 values, max |z| 2.10
    (4 skipped: effective sample size < 2%);
  optimality (numerical minimisation from random starts, d <= 3): oprf, sderf and aderf equal the
    numerical optimum to 1e-10; aderf-dense is the global optimum on zero-mean sets (gap <= 9e-16)
    and within 1e-4 / 2.1e-3 of it on the two sets with non-zero means;
  coupling lemma: OPRF and the scalar-A aderf under orf / simrf blocks (d = 4, 8, M = d) have PosRF's
    cross-feature term: 8 Monte Carlo variances (2e5 blocks), max |z| 2.07;
  derf_reference.py (stable double-precision forms) reproduces every stored value to 6.2e-14.

Run from anywhere:  /usr/bin/python3 tests/reference/generate_derf_references.py
"""

import json
import os
import random
import sys

import mpmath
import numpy as np
from mpmath import mpf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import closed_forms_mp as cf  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "derf_references.json")
DIGITS = 40
PRECISIONS = (60, 100, 160, 260, 420)


def fmt(value):
    if mpmath.isinf(value):
        return "-inf" if value < 0 else "inf"
    return mpmath.nstr(value, DIGITS, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)


def converge(fn):
    previous = None
    for dps in PRECISIONS:
        with mpmath.workdps(dps):
            values = fn()
        if previous is not None and all(
                v == previous[k] or abs(v - previous[k]) <= mpf(10) ** (-(DIGITS + 5)) * abs(v)
                for k, v in values.items()):
            return values
        previous = values
    raise ArithmeticError("reference did not converge")


def to_mp(rows):
    return cf.mat(rows)


# ---------------------------------------------------------------------------------------------
# Explicit parameters ----------------------------------------------------------------------------

def symmetric_with_eigenvalues(rng, eigenvalues):
    d = len(eigenvalues)
    g = np.array([[rng.gauss(0, 1) for _ in range(d)] for _ in range(d)])
    q, _ = np.linalg.qr(g)
    A = q @ np.diag(eigenvalues) @ q.T
    return ((A + A.T) / 2).tolist()


def explicit_cases():
    rng = random.Random(20240520)
    cases = []
    for d in (1, 2, 3, 4):
        identity = np.eye(d).tolist()
        general_q = (np.eye(d) + 0.4 * np.array([[rng.gauss(0, 1) for _ in range(d)]
                                                  for _ in range(d)])).tolist()
        settings = [
            ("scalar A = -0.3, Q = I (OPRF with A = -0.3)", (np.eye(d) * -0.3).tolist(), identity),
            ("scalar A = 0.1, Q = I (GERF s = +1, A = 0.1)", (np.eye(d) * 0.1).tolist(), identity),
            ("dense A in (-0.5, 0.1), general Q",
             symmetric_with_eigenvalues(rng, [-0.5 + 0.6 * k / max(d - 1, 1) for k in range(d)]),
             general_q),
            ("dense A up to 1/8 - 1e-3, general Q",
             symmetric_with_eigenvalues(rng, [0.124] + [-0.2] * (d - 1)), general_q),
        ]
        for label, A, Q in settings:
            for norm in (0.1, 0.7, 2.0):
                x = [rng.gauss(0, norm / d ** 0.5) for _ in range(d)]
                y = [rng.gauss(0, norm / d ** 0.5) for _ in range(d)]
                y2 = [rng.gauss(0, norm / d ** 0.5) for _ in range(d)]

                def values():
                    p = {"context": cf.derf_context(to_mp(A), to_mp(Q))}
                    X, Y, Y2 = cf.vec(x), cf.vec(y), cf.vec(y2)
                    K = cf.kernel(X, Y)
                    m2 = cf.m2_derf(X, Y, X, Y, p)
                    cov = cf.m2_derf(X, Y, X, Y2, p) - K * cf.kernel(X, Y2)
                    mean = cf.derf_mean(x, y, to_mp(A), to_mp(Q))
                    return {"var": m2 - K * K, "g": mpmath.log(m2 / (K * K)), "cov": cov,
                            "mean_ratio": mean / K}

                v = converge(values)
                assert abs(v["mean_ratio"] - 1) < mpf(10) ** -40
                cases.append({"label": "d=%d %s |x|~%g" % (d, label, norm), "d": d, "A": A, "Q": Q,
                              "x": x, "y": y, "y2": y2,
                              "log_variance": fmt(mpmath.log(v["var"])),
                              "log_second_moment_ratio": fmt(v["g"]),
                              "covariance_sign": 1 if v["cov"] > 0 else -1,
                              "log_abs_covariance": fmt(mpmath.log(abs(v["cov"])))})
    return cases


# ---------------------------------------------------------------------------------------------
# Data-driven parameters ---------------------------------------------------------------------------

def gerf_log_excess(d, u_sum, u_diff, a, b, s):
    """log(Var/K^2) of GERF at the mean statistics (CRT eq. 6 through the four-point form), double."""
    A = complex(a, b)
    w = u_sum if s > 0 else u_diff
    R = 1 - 8 * A
    l1 = d * (np.log((1 + R) / 2) - 0.5 * np.log(R)) + s * w / R
    m4 = abs(1 - 4 * A)
    l2 = d * np.log(m4) - d / 2 * np.log(1 - 8 * a) + (4 * s * a + m4) * w / (1 - 8 * a)
    with np.errstate(over="ignore", invalid="ignore"):
        e = 0.5 * (np.exp(l1).real + np.exp(l2)) - 1
    return float(np.log(e)) if e > 0 else float("inf")


def gerf_data_driven(xs, ys):
    """Numerical GERF optimum at the set statistics (as RFScope's optimizeGerf: log excess at the
    mean |x + y|^2 and |x - y|^2), from several starts; returns (A, A_imag, s)."""
    from scipy.optimize import minimize
    X, Y = np.array(xs), np.array(ys)
    d = X.shape[1]
    cross = 2 * X.mean(0) @ Y.mean(0)
    base = np.sum(X * X) / len(X) + np.sum(Y * Y) / len(Y)
    u_sum, u_diff = base + cross, base - cross
    r = ((2 * u_sum + d) + np.sqrt((2 * u_sum + d) ** 2 + 8 * d * u_sum)) / (2 * d)
    best = (gerf_log_excess(d, u_sum, u_diff, (1 - r) / 8, 0.0, 1), (1 - r) / 8, 0.0, 1)
    for s in (1, -1):
        for a0, b0 in (((1 - r) / 8, 0.0), (0.0, 0.0), (-0.05, 0.3), (0.05, 0.5), (-1.0, 1.0)):
            f = lambda t: gerf_log_excess(d, u_sum, u_diff, min(t[0], 0.125 - 1e-12), t[1], s)
            o = minimize(f, [a0, b0], method="Nelder-Mead",
                         options={"xatol": 1e-12, "fatol": 1e-13, "maxiter": 5000})
            if o.fun < best[0] - 1e-12:
                best = (o.fun, min(o.x[0], 0.125 - 1e-12), o.x[1], s)
    return float(best[1]), float(abs(best[2])), int(best[3])


def make_sets():
    rng = np.random.default_rng(20240521)
    sets = []

    def add(label, X, Y):
        sets.append({"label": label, "xs": X.tolist(), "ys": Y.tolist()})

    add("d=2 L=5 normal sigma=0.7", 0.7 * rng.standard_normal((5, 2)), 0.7 * rng.standard_normal((5, 2)))
    S = np.array([[1.0, 0.3, 0.0], [0.0, 0.4, 0.2], [0.1, 0.0, 0.15]])
    add("d=3 L=8 anisotropic, keys shifted by 0.3", rng.standard_normal((8, 3)) @ S,
        rng.standard_normal((8, 3)) @ S.T + 0.3)
    add("d=8 L=12 normal sigma=0.5", 0.5 * rng.standard_normal((12, 8)), 0.5 * rng.standard_normal((12, 8)))
    S = np.diag(np.linspace(0.1, 1.0, 16))
    add("d=16 L=20 anisotropic (scales 0.1..1), queries and keys different",
        rng.standard_normal((20, 16)) @ S, rng.standard_normal((20, 16)) @ S[::-1, ::-1])
    add("d=64 L=100 normal sigma=0.15 (Monte Carlo can check it)",
        0.15 * rng.standard_normal((100, 64)), 0.15 * rng.standard_normal((100, 64)))
    add("d=64 sigma=1 normal (x, y ~ N(0, I), 100 pairs)",
        rng.standard_normal((100, 64)), rng.standard_normal((100, 64)))
    return sets


def variant_parameters(variant, xs, ys):
    d = len(xs[0])
    if variant == "oprf":
        a = cf.data_driven_oprf_a(xs, ys)
        return {"A_matrix": mpmath.eye(d) * a, "Q_matrix": mpmath.eye(d), "r": [1 - 8 * a] * d,
                "objective": None}
    if variant == "sderf":
        return cf.sderf_parameters(xs, ys)
    return cf.aderf_parameters(xs, ys, dense_a=(variant == "aderf-dense"))


def data_driven_values(variant, xs, ys, pairs):
    p = variant_parameters(variant, xs, ys)
    ctx = {"context": cf.derf_context(p["A_matrix"], p["Q_matrix"])}
    out = {}
    d = len(xs[0])
    if p["objective"] is not None:
        out["objective"] = p["objective"]
    else:  # oprf: the averaged objective at its A (same formula as the DERF ones, Q = I)
        r = p["r"][0]
        out["objective"] = d * (mpmath.log((1 + r) / 2) - mpmath.log(r) / 2) + \
            cf.mean_sum_norm_squared(xs, ys) / r
    for k, r in enumerate(sorted(p["r"])):
        out["r_%d" % k] = r
    if "trace_W" in p:
        out["trace_W"] = p["trace_W"]
    for i in range(pairs):
        X, Y = cf.vec(xs[i]), cf.vec(ys[i])
        K = cf.kernel(X, Y)
        out["lv_%d" % i] = mpmath.log(cf.m2_derf(X, Y, X, Y, ctx) - K * K)
    return out


def data_driven_sets():
    sets = make_sets()
    for s in sets:
        xs, ys = s["xs"], s["ys"]
        pairs = min(len(xs), len(ys))
        d = len(xs[0])
        s["variants"] = {}
        for variant in ("oprf", "sderf", "aderf", "aderf-dense"):
            v = converge(lambda: data_driven_values(variant, xs, ys, pairs))
            lv = [v["lv_%d" % i] for i in range(pairs)]
            entry = {"objective": fmt(v["objective"]),
                     "r_sorted": [fmt(v["r_%d" % k]) for k in range(d)],
                     "log_variance": [fmt(t) for t in lv],
                     "mean_log_variance": fmt(mpmath.fsum(lv) / pairs)}
            if "trace_W" in v:
                entry["trace_W"] = fmt(v["trace_W"])
            s["variants"][variant] = entry
            print("  %-60s %-12s mean log Var %s" % (s["label"], variant,
                                                     mpmath.nstr(mpmath.fsum(lv) / pairs, 8)),
                  flush=True)
        a, b, sign = gerf_data_driven(xs, ys)
        params = {"A": a, "A_imag": b, "s": sign}

        def comparison():
            out = {}
            for i in range(pairs):
                X, Y = cf.vec(xs[i]), cf.vec(ys[i])
                K = cf.kernel(X, Y)
                out["gerf_%d" % i] = mpmath.log(cf.m2_gerf(X, Y, X, Y, params) - K * K)
                out["pos_%d" % i] = mpmath.log(cf.m2_pos(X, Y, X, Y) - K * K)
            return out
        v = converge(comparison)
        for name in ("gerf", "pos"):
            lv = [v["%s_%d" % (name, i)] for i in range(pairs)]
            s["variants"][name] = {"log_variance": [fmt(t) for t in lv],
                                   "mean_log_variance": fmt(mpmath.fsum(lv) / pairs)}
        s["variants"]["gerf"]["params"] = params
    return sets


def single_pair_cases(sets):
    """The data-driven parameters of one pair (the set is that pair, as `rfscope-cli analytic`
    chooses them), for the first pairs of the data-driven sets."""
    cases = []
    for s in sets:
        for i in range(2):
            xs, ys = [s["xs"][i]], [s["ys"][i]]
            case = {"label": "%s, pair %d alone" % (s["label"], i), "x": xs[0], "y": ys[0]}
            for variant in ("oprf", "sderf", "aderf"):
                v = converge(lambda: data_driven_values(variant, xs, ys, 1))
                case[variant] = {"objective": fmt(v["objective"]), "log_variance": fmt(v["lv_0"])}
            print("  %-60s sderf %s aderf %s" % (case["label"], case["sderf"]["log_variance"][:12],
                                                 case["aderf"]["log_variance"][:12]), flush=True)
            cases.append(case)
    return cases


def add_single_pairs():
    """Adds (or replaces) the "single_pair" section of the existing output, leaving the rest."""
    mpmath.mp.dps = 80
    with open(OUT) as f:
        out = json.load(f)
    out["single_pair"] = single_pair_cases(out["data_driven"])
    with open(OUT, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote %d single-pair cases to %s" % (len(out["single_pair"]), OUT))


def main():
    # Values leave converge() as mpf numbers; everything computed from them afterwards (logs,
    # means) must not fall back to mpmath's default 15 digits.
    mpmath.mp.dps = 80
    explicit = explicit_cases()
    print("explicit: %d cases" % len(explicit), flush=True)
    sets = data_driven_sets()
    out = {"description": "mpmath references for dense-exponential random features (DERF): "
                          "variances and covariances at explicit parameters, and the data-driven "
                          "parameters of oprf / sderf / aderf / aderf-dense with the variances they "
                          "give; generated by generate_derf_references.py",
           "mpmath_version": mpmath.__version__, "digits": DIGITS,
           "aderf_ridge": "1e-6", "explicit": explicit, "data_driven": sets,
           "single_pair": single_pair_cases(sets)}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote %d explicit cases and %d data sets to %s" % (len(explicit), len(sets), OUT))


if __name__ == "__main__":
    if sys.argv[1:] == ["--single-pairs"]:
        add_single_pairs()
    else:
        main()
