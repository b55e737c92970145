#!/usr/bin/env python3
"""Independent check of derf_references.json (run by hand; results are recorded in the docstring of
generate_derf_references.py).

  1. Quadrature (d = 1, 2): E f1 f2, E (f1 f2)^2 and E[f1(x)f2(y) f1(x)f2(y2)] of the explicit cases
     by Gauss-Hermite product rules (200 and 300 nodes per axis must agree) after an affine change of
     variables to where the weighted integrand lives, integrating the feature definitions
     f1 = D1 exp(w'Aw + w'B1 x + x'C1 x), f2 likewise (B, C, D built from A and Q in double
     precision), against K and the stored variance and covariance.
  2. Monte Carlo: E (f1 f2)^2 from 2e6 draws for the explicit cases at d = 3, 4 and for the first
     paired (x_i, y_i) of every data-driven set whose tails allow it (stored log(E Z^2/K^2) <= 1.5
     and effective sample size >= 2%), with every variant's parameters recomputed by
     derf_reference.py and the features built from A = diag(a), Q = T1; z-scores.
  3. Optimality: the averaged objective mean log(E Z^2 / K^2) minimised numerically over the
     variant's parameter space from random starts, against the closed forms (d <= 3), and the dense
     ADERF on zero-mean sets.
  4. derf_reference.py (stable double-precision forms) against every stored value.
  5. The coupling lemma: OPRF and the scalar-A aderf under ORF / SimRF blocks have PosRF's
     cross-feature term (Monte Carlo of the M-feature variance, d = 4, 8).

Usage: /usr/bin/python3 tests/reference/check_derf_references.py
"""

import json
import math
import os
import sys

import numpy as np
from scipy.optimize import minimize

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import derf_reference as dr  # noqa: E402


def maps(A, Q):
    """(B1, B2, C1, C2, log D1 D2) from A and Q in double precision (the definitions)."""
    d = len(A)
    ev, U = np.linalg.eigh(np.eye(d) - 4 * A)
    root = U @ np.diag(np.sqrt(ev)) @ U.T
    Qi = np.linalg.inv(Q)
    return (root @ Q, root @ Qi.T, -(np.eye(d) + Q.T @ Q) / 2, -(np.eye(d) + Qi @ Qi.T) / 2,
            0.5 * np.log(np.linalg.det(np.eye(d) - 4 * A)))


def product(A, Q, W, x, y):
    B1, B2, C1, C2, logdd = maps(A, Q)
    quad = 2 * np.einsum("ni,ij,nj->n", W, A, W)
    return np.exp(logdd + quad + W @ (B1 @ x) + W @ (B2 @ y) + x @ C1 @ x + y @ C2 @ y)


def quadrature(A, Q, pairs, nodes=(200, 300)):
    """log E prod_(x, y) in pairs f1(w, x) f2(w, y) (one or two pairs sharing w), d <= 2, by a
    Gauss-Hermite product rule after the affine substitution w = c + L t, L = (I - 4pA)^{-1/2}
    (p = number of pairs), c where the weighted integrand peaks (a window, not an answer); two
    node counts must agree to 1e-12."""
    d = len(pairs[0][0])
    p = len(pairs)
    B1, B2, C1, C2, logdd = maps(A, Q)
    ev, U = np.linalg.eigh(np.eye(d) - 4 * p * A)
    Lm = U @ np.diag(1 / np.sqrt(ev)) @ U.T
    lin = sum(B1 @ x + B2 @ y for x, y in pairs)
    c = np.linalg.solve(np.eye(d) - 4 * p * A, lin)
    const = sum(logdd + x @ C1 @ x + y @ C2 @ y for x, y in pairs)
    out = []
    for n in nodes:
        t, wt = np.polynomial.hermite_e.hermegauss(n)
        if d == 1:
            T, Wt = t[:, None], wt
        else:
            T = np.stack(np.meshgrid(t, t, indexing="ij"), -1).reshape(-1, 2)
            Wt = np.outer(wt, wt).ravel()
        W = c[None, :] + T @ Lm.T
        logz = const + 2 * p * np.einsum("ni,ij,nj->n", W, A, W) + W @ lin
        loga = logz - 0.5 * np.sum(W * W, 1) + 0.5 * np.sum(T * T, 1) + np.log(abs(np.linalg.det(Lm)))
        m = loga.max()
        out.append(m + math.log(np.sum(Wt * np.exp(loga - m)) / (2 * math.pi) ** (d / 2)))
    if abs(out[1] - out[0]) > 1e-12 * max(1, abs(out[1])):
        return float("nan")
    return out[1]


def check_quadrature(refs):
    import mpmath
    worst_mean = worst_m2 = worst_cov = 0.0
    n = 0
    for c in refs["explicit"]:
        if c["d"] > 2:
            continue
        A, Q, x, y, y2 = (np.array(c[k], dtype=float) for k in ("A", "Q", "x", "y", "y2"))
        log_k = -np.sum((x - y) ** 2) / 2
        log_k2 = -np.sum((x - y2) ** 2) / 2
        log_mean = quadrature(A, Q, [(x, y)])
        log_m2 = quadrature(A, Q, [(x, y), (x, y)])
        log_cross = quadrature(A, Q, [(x, y), (x, y2)])
        assert not any(math.isnan(v) for v in (log_mean, log_m2, log_cross)), "no convergence"
        with mpmath.workdps(50):  # stored 40-digit values back to second moments (K in 50 digits:
            mp = mpmath.mpf        # the sum cancels when Cov ~ -K1 K2)
            lk = lambda a, b: -mpmath.fsum((mp(u) - mp(v)) ** 2 for u, v in zip(a, b)) / 2
            lk1, lk2 = lk(c["x"], c["y"]), lk(c["x"], c["y2"])
            want = float(mpmath.log(mpmath.exp(mp(c["log_variance"])) + mpmath.exp(2 * lk1)))
            cross = c["covariance_sign"] * mpmath.exp(mp(c["log_abs_covariance"])) + \
                mpmath.exp(lk1 + lk2)
            want_cross = float(mpmath.log(cross))
        worst_mean = max(worst_mean, abs(log_mean - log_k))
        worst_m2 = max(worst_m2, abs(log_m2 - want) / max(1, abs(want)))
        worst_cov = max(worst_cov, abs(log_cross - want_cross) / max(1, abs(want_cross)))
        n += 1
    print("quadrature (d <= 2, %d cases): max |log E f1f2 - log K| = %.1e; max error (relative beyond "
          "1) of log E Z^2 = %.1e, of log E[Z(x, y) Z(x, y2)] = %.1e" % (n, worst_mean, worst_m2, worst_cov))


def mc_z(A, Q, x, y, want, rng, draws=2_000_000, batches=20, label=""):
    """z-score of the sample mean of (f1 f2)^2 against `want`, or None when the sample is dominated
    by a few draws (effective sample size below 2%: no usable standard error)."""
    d = len(x)
    vals = []
    for _ in range(batches):
        W = rng.standard_normal((draws // batches, d))
        vals.append(product(A, Q, W, x, y) ** 2)
    v = np.concatenate(vals)
    ess = np.sum(v) ** 2 / np.sum(v * v)
    if ess < len(v) / 50:
        return None
    z = (v.mean() - want) / (v.std() / math.sqrt(len(v)))
    if abs(z) > 4:
        print("  outlier", label, "z = %.2f, effective sample size %.0f" % (z, ess))
    return z


def canonical_to_aq(p):
    """A, Q of a canonical (a, T1, T2) DERF: with the rotation U = I, A = diag(a), Q = T1."""
    return np.diag(p["a"]), p["T1"]


def check_monte_carlo(refs):
    rng = np.random.default_rng(20240522)
    zs = []
    for c in refs["explicit"]:
        if c["d"] < 3 or float(c["log_second_moment_ratio"]) > 2:
            continue
        A, Q, x, y = (np.array(c[k], dtype=float) for k in ("A", "Q", "x", "y"))
        K = math.exp(-np.sum((x - y) ** 2) / 2)
        zs.append(mc_z(A, Q, x, y, math.exp(float(c["log_variance"])) + K * K, rng, label=c["label"]))
    for s in refs["data_driven"]:
        X, Y = np.array(s["xs"]), np.array(s["ys"])
        d = X.shape[1]
        params = {"sderf": dr.sderf_parameters(X, Y), "aderf": dr.aderf_parameters(X, Y),
                  "aderf-dense": dr.aderf_parameters(X, Y, True)}
        for variant, p in params.items():
            A, Q = canonical_to_aq(p)
            assert np.allclose(p["T2"], np.linalg.inv(p["T1"]).T, atol=1e-8 * np.abs(p["T2"]).max())
            for i in range(min(4, len(X))):
                lv = float(s["variants"][variant]["log_variance"][i])
                K2 = math.exp(-np.sum((X[i] - Y[i]) ** 2))
                if lv - math.log(K2) > 1.5:  # log(E Z^2/K^2) > ~2: no usable sample variance
                    continue
                zs.append(mc_z(A, Q, X[i], Y[i], math.exp(lv) + K2, rng, draws=1_000_000,
                               label="%s %s pair %d" % (s["label"], variant, i)))
        print("  monte carlo: %-62s d=%d done" % (s["label"], d), flush=True)
    skipped = sum(z is None for z in zs)
    zs = np.array([z for z in zs if z is not None])
    print("monte carlo: %d values, max |z| %.2f, mean z %.3f, std z %.3f; %d skipped (effective "
          "sample size < 2%%)" % (len(zs), np.max(np.abs(zs)), zs.mean(), zs.std(), skipped))


def objective(R, W):
    """mean log(E Z^2/K^2) = logdet((I + R)/2) - logdet(R)/2 + tr(R^{-1} W), R = I - 8A."""
    d = len(R)
    return (np.linalg.slogdet((np.eye(d) + R) / 2)[1] - 0.5 * np.linalg.slogdet(R)[1] +
            np.trace(np.linalg.solve(R, W)))


def w_of(Q, M1, M2, m1, m2):
    Qi = np.linalg.inv(Q)
    c = np.outer(Q @ m1, Qi.T @ m2)
    return Q @ M1 @ Q.T + Qi.T @ M2 @ Qi + c + c.T


def check_optimality(refs, starts=6):
    rng = np.random.default_rng(20240523)
    for s in refs["data_driven"]:
        X, Y = np.array(s["xs"]), np.array(s["ys"])
        d = X.shape[1]
        if d > 3:
            continue
        M1, M2, m1, m2 = dr.set_moments(X, Y)
        P = w_of(np.eye(d), M1, M2, m1, m2)
        tril = np.tril_indices(d)

        def spd(t):
            Lc = np.zeros((d, d))
            Lc[tril] = t
            return Lc @ Lc.T + 1e-12 * np.eye(d)

        best_o = min(minimize(lambda t: objective(math.exp(t[0]) * np.eye(d), P), [rng.normal()],
                              method="BFGS").fun for _ in range(starts))
        best_s = min(minimize(lambda t: objective(spd(t), P), np.eye(d)[tril] + 0.3 * rng.normal(size=len(tril[0])),
                              method="BFGS").fun for _ in range(starts))
        best_a = min(minimize(lambda t: objective(math.exp(t[-1]) * np.eye(d), w_of(t[:-1].reshape(d, d), M1, M2, m1, m2)),
                              np.concatenate([np.eye(d).ravel() + 0.2 * rng.normal(size=d * d), [0.3]]),
                              method="BFGS").fun for _ in range(starts))

        def dense(t):
            Wq = w_of(t.reshape(d, d), M1, M2, m1, m2)
            lam, U = np.linalg.eigh((Wq + Wq.T) / 2)
            r = 1 + dr.oprf_r_minus_one(1, np.maximum(lam, 0))
            return objective(U @ np.diag(r) @ U.T, Wq)
        best_d = min(minimize(dense, np.eye(d).ravel() + 0.3 * rng.normal(size=d * d), method="Nelder-Mead",
                              options={"maxiter": 40000, "xatol": 1e-11, "fatol": 1e-13}).fun
                     for _ in range(starts))
        v = s["variants"]
        print("optimality %-45s oprf %.10f/%.10f  sderf %.10f/%.10f  aderf %.10f/%.10f  "
              "aderf-dense %.10f/%.10f (closed form / numerical)" % (
                  s["label"], float(v["oprf"]["objective"]), best_o, float(v["sderf"]["objective"]),
                  best_s, float(v["aderf"]["objective"]), best_a,
                  float(v["aderf-dense"]["objective"]), best_d))
    # zero-mean sets: the geometric mean with a dense A is the global optimum (Bhatia-Kittaneh)
    worst = 0.0
    for _ in range(4):
        d = 3
        X = rng.normal(size=(7, d)) @ rng.normal(scale=0.6, size=(d, d))
        Y = rng.normal(size=(7, d)) @ rng.normal(scale=0.6, size=(d, d))
        M1, M2 = X.T @ X / 7, Y.T @ Y / 7
        z = np.zeros(d)
        Q, Qit, _ = dr.geometric_mean_factor(M1, M2)
        Wg = w_of(Q, M1, M2, z, z)
        lam, U = np.linalg.eigh((Wg + Wg.T) / 2)
        closed = objective(U @ np.diag(1 + dr.oprf_r_minus_one(1, lam)) @ U.T, Wg)

        def dense0(t):
            Wq = w_of(t.reshape(d, d), M1, M2, z, z)
            lam, U = np.linalg.eigh((Wq + Wq.T) / 2)
            return objective(U @ np.diag(1 + dr.oprf_r_minus_one(1, np.maximum(lam, 0))) @ U.T, Wq)
        num = min(minimize(dense0, np.eye(d).ravel() + 0.3 * rng.normal(size=d * d), method="Nelder-Mead",
                           options={"maxiter": 40000, "xatol": 1e-11, "fatol": 1e-13}).fun for _ in range(starts))
        worst = max(worst, closed - num)
    print("zero-mean sets: closed-form dense ADERF minus numerical optimum <= %.1e" % worst)


def check_coupling_lemma(draws=200000):
    """Scalar-A DERFs (OPRF, aderf) under ORF / SimRF blocks: the M-feature variance must be
    (M Var1 + M(M-1) K^2 (e^{-u} rho(u) - 1)) / M^2 with PosRF's conformity rho at u = |T1 x + T2 y|^2
    (README section 2, Lemma). Blocks as RFScope draws them (check_trig_phase_references.draw)."""
    import mpmath
    import check_trig_phase_references as ctp
    import generate_analytic_references as ga
    rng = np.random.default_rng(20240525)
    zs = []
    for d in (4, 8):
        for coupling in ("orf", "simrf"):
            x, y = 0.25 * rng.normal(size=d), 0.25 * rng.normal(size=d)
            for a, T1 in ((np.full(d, -0.2), np.eye(d)),
                          (np.full(d, -0.1), np.eye(d) + 0.15 * rng.normal(size=(d, d)))):
                p = {"a": a, "T1": T1, "T2": np.linalg.inv(T1).T}
                est = np.empty(draws)
                for start in range(0, draws, 5000):
                    W = ctp.draw(rng, coupling, d, d, 5000)
                    f1 = dr.features(p, W.reshape(-1, d), x[None, :], p["T1"]).reshape(5000, d)
                    f2 = dr.features(p, W.reshape(-1, d), y[None, :], p["T2"]).reshape(5000, d)
                    est[start:start + 5000] = np.mean(f1 * f2, 1)
                K = math.exp(-np.sum((x - y) ** 2) / 2)
                dev = est - K
                if np.sum(dev ** 2) ** 2 / np.sum(dev ** 4) < draws / 50:
                    continue  # heavy tail: no usable standard error
                v = np.mean(dev ** 2)
                se = math.sqrt((np.mean(dev ** 4) - v * v) / draws)
                q = p["T1"] @ x + p["T2"] @ y
                u = float(q @ q)
                with mpmath.workdps(30):
                    rho = ga.rho_orf(d, mpmath.mpf(u)) if coupling == "orf" else ga.rho_simrf(d, mpmath.mpf(u))
                    cross = K * K * (float(mpmath.exp(-u) * rho) - 1)
                var1 = math.exp(dr.log_variance(p, x, y))
                zs.append((v - (d * var1 + d * (d - 1) * cross) / d ** 2) / se)
    zs = np.array(zs)
    print("coupling lemma (oprf and scalar aderf under orf / simrf blocks, d = 4, 8, M = d): "
          "%d variances, max |z| %.2f" % (len(zs), np.max(np.abs(zs))))


def main():
    refs = json.load(open(os.path.join(HERE, "derf_references.json")))
    dr._self_check()
    if "--mc-only" not in sys.argv:
        check_quadrature(refs)
        check_optimality(refs)
    check_monte_carlo(refs)
    check_coupling_lemma()


if __name__ == "__main__":
    main()
