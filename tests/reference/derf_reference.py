#!/usr/bin/env python3
"""NumPy reference implementation of dense-exponential random features (DERF, "FAVOR#"): the
data-driven parameters of sderf / aderf, the feature maps, and the closed-form variance and
covariance in their stable forms (double precision). Formulas and derivations:
README-attention-derf.md; the mpmath ground truth is derf_references.json.

A DERF is held in its canonical form {"a": a (d,), "T1": (d, d), "T2": (d, d)}:
  x~ = T1 x, y~ = T2 y, r_l = 1 - 8 a_l > 0,
  f1(w, x) = D exp(sum_l a_l w_l^2 + sum_l sqrt(1 - 4 a_l) w_l x~_l - (|x|^2 + |x~|^2)/2),
  f2(w, y) = the same with y, y~;  D = prod_l (1 - 4 a_l)^{1/4},  w ~ N(0, I_d),
which is the DERF with A = U diag(a) U', B1 = (I - 4A)^{1/2} Q, B2 = (I - 4A)^{1/2} Q^{-T},
T1 = U'Q, T2 = U'Q^{-T} after the rotation w -> U'w (which leaves N(0, I) unchanged).
T1' T2 = I is the unbiasedness condition (x~.y~ = x.y).

Run as a script for a self-check against derf_references.json.
"""

import json
import math
import os

import numpy as np

ADERF_RIDGE = 1e-6  # relative ridge added to both second-moment matrices (see aderf_parameters)


def oprf_r_minus_one(d, u):
    """r - 1 >= 0 for the positive root r of d r^2 - (d + 2u) r - 2u = 0, free of cancellation."""
    u = np.asarray(u, dtype=float)
    root = np.sqrt((2 * u + d) ** 2 + 8 * d * u)
    return (2 * u + 4 * u * (u + 3 * d) / (root + d)) / (2 * d)


def set_moments(X, Y):
    """M1 = mean x x', M2 = mean y y', m1 = mean x, m2 = mean y."""
    return X.T @ X / len(X), Y.T @ Y / len(Y), X.mean(0), Y.mean(0)


def log_prefactor_term(r):
    """log((1 + r)/2) - log(r)/2 = log1p((r - 1)^2 / (2 sqrt(r) (1 + sqrt(r))^2)) >= 0."""
    sr = np.sqrt(r)
    return np.log1p((r - 1) ** 2 / (2 * sr * (1 + sr) ** 2))


def sderf_parameters(X, Y):
    """Symmetric DERF (B1 = B2): A = U diag(a) U' with U diag(lam) U' = Sigma_p =
    M1 + M2 + m1 m2' + m2 m1' and a_l = -(r_l - 1)/8, r_l = root(1, lam_l); T1 = T2 = U'."""
    M1, M2, m1, m2 = set_moments(X, Y)
    P = M1 + M2 + np.outer(m1, m2) + np.outer(m2, m1)
    lam, U = np.linalg.eigh((P + P.T) / 2)
    lam = np.maximum(lam, 0)
    rm1 = oprf_r_minus_one(1, lam)
    r = 1 + rm1
    return {"a": -rm1 / 8, "T1": U.T.copy(), "T2": U.T.copy(), "lambda": lam,
            "objective": float(np.sum(log_prefactor_term(r) + lam / r))}


def geometric_mean_factor(M1, M2):
    """(Q, Q^{-T}, sigma) with Q M1 Q' = Q^{-T} M2 Q^{-1} = diag(sigma), sigma^2 = eig(M1 M2)."""
    l1, Q1 = np.linalg.eigh(M1)
    h = np.sqrt(l1)
    H = h[:, None] * (Q1.T @ M2 @ Q1) * h[None, :]
    s2, V = np.linalg.eigh((H + H.T) / 2)
    sigma = np.sqrt(np.maximum(s2, 0))
    Q = (np.sqrt(sigma)[:, None] * V.T) @ (Q1 / h[None, :]).T
    Q_inv_T = (V.T / np.sqrt(sigma)[:, None]) @ (Q1 * h[None, :]).T
    return Q, Q_inv_T, sigma


def aderf_parameters(X, Y, dense_a=False):
    """Asymmetric DERF. Q from the geometric mean of M1^{-1} and M2 (after the ridge
    M_k += ADERF_RIDGE (tr M1 + tr M2)/(2d) I, which keeps L < d sets valid); then W = mean p p',
    p = Q x + Q^{-T} y, and either a scalar a (root(d, tr W)) or a dense A (eigen of W)."""
    M1, M2, m1, m2 = set_moments(X, Y)
    d = M1.shape[0]
    ridge = ADERF_RIDGE * (np.trace(M1) + np.trace(M2)) / (2 * d)
    if not ridge > 0:  # every input is zero: any parameters are exact; take OPRF at u = 0 (A = 0)
        return {"a": np.zeros(d), "T1": np.eye(d), "T2": np.eye(d), "objective": 0.0}
    Q, Q_inv_T, sigma = geometric_mean_factor(M1 + ridge * np.eye(d), M2 + ridge * np.eye(d))
    W = Q @ M1 @ Q.T + Q_inv_T @ M2 @ Q_inv_T.T  # the un-ridged moments
    cross = np.outer(Q @ m1, Q_inv_T @ m2)
    W = W + cross + cross.T
    W = (W + W.T) / 2
    if not dense_a:
        u = float(np.trace(W))
        rm1 = float(oprf_r_minus_one(d, u))
        r = 1 + rm1
        return {"a": np.full(d, -rm1 / 8), "T1": Q, "T2": Q_inv_T, "sigma": sigma, "trace_W": u,
                "objective": float(d * log_prefactor_term(r) + u / r)}
    lam, U = np.linalg.eigh(W)
    lam = np.maximum(lam, 0)
    rm1 = oprf_r_minus_one(1, lam)
    r = 1 + rm1
    return {"a": -rm1 / 8, "T1": U.T @ Q, "T2": U.T @ Q_inv_T, "sigma": sigma, "lambda": lam,
            "objective": float(np.sum(log_prefactor_term(r) + lam / r))}


def oprf_as_derf(a, d):
    """OPRF / GERF(s = +1, real A) as a DERF: a_l = A, T1 = T2 = I."""
    return {"a": np.full(d, float(a)), "T1": np.eye(d), "T2": np.eye(d)}


def log_excess(p, x, y):
    """g = log(E Z^2 / K^2) = sum_l [log((1+r_l)/2) - log(r_l)/2 + q_l^2 / r_l], q = T1 x + T2 y."""
    r = 1 - 8 * p["a"]
    q = p["T1"] @ x + p["T2"] @ y
    return float(np.sum(log_prefactor_term(r)) + np.sum(q * q / r))


def log_expm1(g):
    return g + math.log(-math.expm1(-g)) if g > 0 else (-math.inf if g == 0 else math.nan)


def log_variance(p, x, y):
    """log Var of one feature, Gaussian kernel: -|x - y|^2 + log(expm1(g))."""
    return -float(np.sum((x - y) ** 2)) + log_expm1(log_excess(p, x, y))


def covariance(p, x1, y1, x2, y2):
    """Cov(Z(x1, y1), Z(x2, y2)), shared w: K1 K2 expm1(phi),
    phi = sum_l [log((1+r)/2) - log(r)/2 + ((q1 + q2)^2 - r (q1 - q2)^2) / (4 r)]."""
    r = 1 - 8 * p["a"]
    q1 = p["T1"] @ x1 + p["T2"] @ y1
    q2 = p["T1"] @ x2 + p["T2"] @ y2
    phi = np.sum(log_prefactor_term(r)) + np.sum(((q1 + q2) ** 2 - r * (q1 - q2) ** 2) / (4 * r))
    K1 = math.exp(-np.sum((x1 - y1) ** 2) / 2)
    K2 = math.exp(-np.sum((x2 - y2) ** 2) / 2)
    return K1 * K2 * math.expm1(phi)


def features(p, W, X, T):
    """One-feature values f(w_m, x_i) for the rows of W (M, d): (L, M), Gaussian kernel."""
    a = p["a"]
    Xt = X @ T.T
    logD = 0.25 * np.sum(np.log1p(-4 * a))
    return np.exp(logD + ((W * W) @ a)[None, :] + (Xt * np.sqrt(1 - 4 * a)) @ W.T -
                  (np.sum(X * X, 1) + np.sum(Xt * Xt, 1))[:, None] / 2)


def estimate(p, W, x, y):
    """The M-feature estimate of K(x, y) for the frequencies W (M, d)."""
    f1 = features(p, W, x[None, :], p["T1"])[0]
    f2 = features(p, W, y[None, :], p["T2"])[0]
    return float(np.mean(f1 * f2))


def _self_check():
    here = os.path.dirname(os.path.abspath(__file__))
    refs = json.load(open(os.path.join(here, "derf_references.json")))
    worst = 0.0
    for c in refs["explicit"]:
        A, Q = np.array(c["A"]), np.array(c["Q"])
        lam, U = np.linalg.eigh(A)
        p = {"a": lam, "T1": U.T @ Q, "T2": U.T @ np.linalg.inv(Q).T}
        got = log_variance(p, np.array(c["x"]), np.array(c["y"]))
        worst = max(worst, abs(got - float(c["log_variance"])) / max(1, abs(float(c["log_variance"]))))
    for s in refs["data_driven"]:
        X, Y = np.array(s["xs"]), np.array(s["ys"])
        for variant, v in s["variants"].items():
            if variant in ("gerf", "pos"):
                continue
            p = {"sderf": lambda: sderf_parameters(X, Y), "aderf": lambda: aderf_parameters(X, Y),
                 "aderf-dense": lambda: aderf_parameters(X, Y, True),
                 "oprf": lambda: oprf_as_derf(-float(oprf_r_minus_one(X.shape[1], np.sum(
                     X * X) / len(X) + np.sum(Y * Y) / len(Y) + 2 * X.mean(0) @ Y.mean(0))) / 8,
                     X.shape[1])}[variant]()
            for i, lv in enumerate(v["log_variance"]):
                got = log_variance(p, X[i], Y[i])
                worst = max(worst, abs(got - float(lv)) / max(1, abs(float(lv))))
    print("derf_reference vs derf_references.json: max |error| in the logs %.1e" % worst)


if __name__ == "__main__":
    _self_check()
