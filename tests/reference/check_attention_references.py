#!/usr/bin/env python3
"""Independent check of attention_references.json (run by hand; results are recorded in the
docstring of generate_attention_references.py).

Nothing here uses a closed form: every expectation is taken of the estimator's definition.
  1. Quadrature (d <= 2): E[Z(x1, y1) Z(x2, y2)] of every covariance case by Gauss-Hermite product
     rules (160 and 240 nodes per axis must agree to 1e-12) after shifting and scaling to where the
     weighted integrand lives, over w and over the coefficient samples tau of the hybrids (which are
     independent of w; the angular coefficient in d = 2 by exact arc measure on the circle), against
     the stored covariance + K1 K2 (added in 50 digits). Cases whose integrand cancels by more than
     1e6 (oscillating trig integrands at large |x - y|) cannot be resolved in double precision and
     are counted, not compared.
  2. Monte Carlo (every d): the same second moments from 2e5 draws of (w, tau, b), as z-scores, for
     the quadruples with |x| <= 0.5 and the traps; cases with heavy tails (effective sample size
     below 2%, or GERF/OPRF with Re A >= 1/32) are counted as skipped.
  3. Attention: for MC-friendly problems (d = 2, 4, 16, 64, |x| ~ 0.4) and every mechanism, the
     per-row linearised errors (N^_i - o_i D^_i)/D_i, (SM^_i - A_i D^_i)/D_i and D^_i - D_i of
     single features drawn by attention_reference.feature_blocks (the feature maps written from
     the mechanisms' definitions) against T_i, F_i and Var D_i of the mpmath code path that wrote
     the JSON; and attention_reference.predict (the factorised algorithm) against the JSON.

Usage: /usr/bin/python3 tests/reference/check_attention_references.py [--quick]
"""

import json
import math
import os
import random
import sys

import numpy as np
from scipy import integrate

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import attention_reference as ar  # noqa: E402

QUICK = "--quick" in sys.argv


# ---------------------------------------------------------------------------------------------
# Estimator definitions (vectorised over draws) -------------------------------------------------

def product(mech, w, x, y, params, b=None):
    """Z(x, y) for draws w (N, d) (and phases b): the definitions, nothing else."""
    if mech == "trig":
        return np.cos(w @ (x - y))
    if mech == "pos":
        return np.exp(w @ (x + y) - x @ x - y @ y)
    if mech == "pos-hyp":
        return np.exp(-x @ x - y @ y) * np.cosh(w @ (x + y))
    if mech == "trig-phase":
        return 2 * np.cos(w @ x + b) * np.cos(w @ y + b)
    if mech in ("gerf", "oprf"):
        A = complex(params["A"], params.get("A_imag", 0.0))
        s = int(params.get("s", 1))
        d = len(x)
        B = np.sqrt(complex(s * (1 - 4 * A)))
        z = (d / 2 * np.log(1 - 4 * A) + 2 * A * np.sum(w * w, 1) + B * (w @ (x + s * y)) -
             (s + 1) / 2 * (x @ x + y @ y))
        return np.exp(z).real
    raise ValueError(mech)


def coefficient(mech, tau, x, y, params):
    """One coefficient sample l(tau; x, y) of the hybrids, tau (N, d)."""
    if mech == "hybrid-angular":
        return (np.sign(tau @ x) != np.sign(tau @ y)).astype(float)
    return 1 - np.cos(tau @ (x - y) / params["bandwidth"])


def kernel(x, y):
    return math.exp(-np.sum((x - y) ** 2) / 2)


# ---------------------------------------------------------------------------------------------
# 1. Quadrature --------------------------------------------------------------------------------

def gaussian_expectation(f, d, center=None, scale=1.0, nodes=(160, 240)):
    """E f(w), w ~ N(0, I_d), d = 1 or 2, by a Gauss-Hermite product rule after the substitution
    w = center + scale t (center/scale: where and how wide the weighted integrand is; no answer is
    used). Two node counts must agree to 1e-12 relative. Returns (value, E|f| estimate)."""
    c = np.zeros(d) if center is None else np.asarray(center, dtype=float)
    results = []
    for n in nodes:
        t, wt = np.polynomial.hermite_e.hermegauss(n)  # weight e^{-t^2/2}
        if d == 1:
            T = t[:, None]
            Wt = wt
        else:
            T = np.stack(np.meshgrid(t, t, indexing="ij"), -1).reshape(-1, 2)
            Wt = np.outer(wt, wt).ravel()
        w = c[None, :] + scale * T
        # density ratio phi(w)/phi_t(t) * scale^d, in logs
        logratio = -0.5 * np.sum(w * w, 1) + 0.5 * np.sum(T * T, 1) + d * math.log(scale)
        vals = f(w) * np.exp(logratio) / (2 * math.pi) ** (d / 2)
        results.append((np.sum(Wt * vals), np.sum(Wt * np.abs(vals))))
    (v1, a1), (v2, a2) = results
    if abs(v2 - v1) > 1e-12 * max(abs(v2), 1e-14 * a2):
        return float("nan"), a2
    return v2, a2


def window(mech, x1, y1, x2, y2, params):
    """(center, scale) of the Gaussian-weighted integrand of Z1 Z2 (an integration window)."""
    d = len(x1)
    if mech == "pos":
        return x1 + y1 + x2 + y2, 1.0
    if mech in ("gerf", "oprf"):
        A = complex(params["A"], params.get("A_imag", 0.0))
        s = int(params.get("s", 1))
        B = np.sqrt(complex(s * (1 - 4 * A)))
        width = 1 / math.sqrt(1 - 8 * A.real)
        return B.real * (x1 + s * y1 + x2 + s * y2) * width ** 2, width
    return np.zeros(d), 1.0


def quadrature_second_moment(mech, x1, y1, x2, y2, params):
    d = len(x1)
    if mech in ("trig", "pos", "pos-hyp", "gerf", "oprf"):
        p = dict(params, s=1) if mech == "oprf" else params
        f = lambda w: product(mech, w, x1, y1, p) * product(mech, w, x2, y2, p)
        if mech == "pos-hyp":  # two tilts +-(s1 + s2): integrate the two exponentials apart
            s = x1 + y1 + x2 + y2
            e = math.exp(-x1 @ x1 - y1 @ y1 - x2 @ x2 - y2 @ y2) / 4
            parts = []
            for sign1, sign2 in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                t = sign1 * (x1 + y1) + sign2 * (x2 + y2)
                g = lambda w, t=t: e * np.exp(w @ t)
                parts.append(gaussian_expectation(g, d, center=t))
            return sum(v for v, _ in parts), sum(a for _, a in parts)
        center, scale = window(mech, x1, y1, x2, y2, params)
        return gaussian_expectation(f, d, center=center, scale=scale)
    if mech == "trig-phase":
        # average over the phase b in closed form per w would be a formula; integrate it instead
        bs = np.linspace(0, 2 * math.pi, 17)[:-1]  # trapezoid rule: exact for degree-4 trig polynomials

        def f(w):
            z = lambda x, y: 2 * np.cos((w @ x)[:, None] + bs) * np.cos((w @ y)[:, None] + bs)
            return np.mean(z(x1, y1) * z(x2, y2), 1)
        return gaussian_expectation(f, d)
    # hybrids: tau is independent of w, so E[Z1 Z2] splits into coefficient and base moments.
    n = int(params["n"])
    if mech == "hybrid-angular" and d == 2:
        # l depends on the direction phi of tau only: exact measure on the circle
        def avg(fn):
            a1 = [math.atan2(v[1], v[0]) for v in (x1, y1, x2, y2)]
            pts = sorted({(a + k * math.pi / 2) % (2 * math.pi) for a in a1 for k in (1, 3)})
            g = lambda phi: fn(np.array([[math.cos(phi), math.sin(phi)]]))[0]
            edges = [0.0] + pts + [2 * math.pi]
            return sum(integrate.quad(g, lo, hi)[0] for lo, hi in zip(edges[:-1], edges[1:])) / (2 * math.pi)
        coef = avg
    elif mech == "hybrid-angular":
        coef = lambda fn: np.mean([fn(np.array([[sgn]]))[0] for sgn in (1.0, -1.0)])
    else:
        coef = lambda fn: gaussian_expectation(fn, d)[0]
    e1 = coef(lambda t: coefficient(mech, t, x1, y1, params))
    e2 = coef(lambda t: coefficient(mech, t, x2, y2, params))
    e12 = coef(lambda t: coefficient(mech, t, x1, y1, params) * coefficient(mech, t, x2, y2, params))
    l12 = e12 / n + (1 - 1 / n) * e1 * e2
    P = lambda w, x, y: np.exp(-x @ x - y @ y) * np.cosh(w @ (x + y))
    T = lambda w, x, y: np.cos(w @ (x - y))
    def q(f, center=None):
        return gaussian_expectation(f, d, center=center)[0]
    pp = quadrature_second_moment("pos-hyp", x1, y1, x2, y2, {})[0]
    tt = quadrature_second_moment("trig", x1, y1, x2, y2, {})[0]
    if params["shared"]:
        # cosh = two exponentials: integrate each around its own tilt
        half = lambda w, sg, x, y: np.exp(-x @ x - y @ y + sg * (w @ (x + y))) / 2
        pt = sum(q(lambda w, sg=sg: half(w, sg, x1, y1) * T(w, x2, y2), sg * (x1 + y1)) for sg in (1, -1))
        tp = sum(q(lambda w, sg=sg: T(w, x1, y1) * half(w, sg, x2, y2), sg * (x2 + y2)) for sg in (1, -1))
    else:
        pm = lambda x, y: sum(q(lambda w, sg=sg: np.exp(-x @ x - y @ y + sg * (w @ (x + y))) / 2,
                                sg * (x + y)) for sg in (1, -1))
        pt = pm(x1, y1) * q(lambda w: T(w, x2, y2))
        tp = q(lambda w: T(w, x1, y1)) * pm(x2, y2)
    value = l12 * pp + (e1 - l12) * pt + (e2 - l12) * tp + (1 - e1 - e2 + l12) * tt
    return value, abs(l12 * pp) + abs(e1 - l12) * abs(pt) + abs(e2 - l12) * abs(tp) + abs(tt)


def stored_second_moment(case, q):
    """E[Z1 Z2] = Cov + K1 K2 from the stored 40-digit covariance, added in 50-digit arithmetic
    (in double the sum loses digits when Cov ~ -K1 K2)."""
    import mpmath
    with mpmath.workdps(50):
        k = lambda x, y: mpmath.exp(-mpmath.fsum((mpmath.mpf(a) - mpmath.mpf(b)) ** 2
                                                for a, b in zip(x, y)) / 2)
        cov = case["sign"] * mpmath.exp(mpmath.mpf(case["log_abs_covariance"])) if case["sign"] else 0
        return float(cov + k(q["x1"], q["y1"]) * k(q["x2"], q["y2"]))


def check_quadrature(refs):
    """Relative error where the integrand cancels by < 100, and the error relative to E|Z1 Z2|
    (what double-precision quadrature can resolve) everywhere it converges."""
    worst_rel, worst_abs, n_rel, n_abs, unresolved = 0.0, 0.0, 0, 0, 0
    for case in refs["covariances"]:
        q = refs["quadruples"][case["quadruple"]]
        x1, y1, x2, y2 = (np.array(q[k]) for k in ("x1", "y1", "x2", "y2"))
        if len(x1) > 2:
            continue
        mech, params = case["mechanism"], case["params"]
        with np.errstate(all="ignore"):
            value, absolute = quadrature_second_moment(mech, x1, y1, x2, y2, params)
        expected = stored_second_moment(case, q)
        if math.isnan(value) or not absolute < 1e300 or absolute > 1e6 * abs(expected):
            unresolved += 1
            continue
        err_abs = abs(value - expected) / absolute
        worst_abs = max(worst_abs, err_abs)
        n_abs += 1
        if absolute < 100 * abs(expected):
            worst_rel = max(worst_rel, abs(value - expected) / abs(expected))
            n_rel += 1
        if err_abs > 1e-10:
            print("  quadrature MISMATCH", mech, params, q["label"], value, expected, err_abs)
    print("quadrature (d <= 2): %d cases with cancellation < 100: max relative error %.1e; "
          "%d cases: max |error| / E|Z1 Z2| %.1e; %d unresolvable (cancellation > 1e6 or no "
          "convergence)" % (n_rel, worst_rel, n_abs, worst_abs, unresolved))


# ---------------------------------------------------------------------------------------------
# 2. Monte Carlo of the covariance cases ---------------------------------------------------------

def mc_second_moment(mech, x1, y1, x2, y2, params, rng, draws):
    d = len(x1)
    w = rng.standard_normal((draws, d))
    if mech.startswith("hybrid"):
        n = int(params["n"])
        tau = rng.standard_normal((draws, n, d))
        l1 = np.mean([coefficient(mech, tau[:, k], x1, y1, params) for k in range(n)], 0)
        l2 = np.mean([coefficient(mech, tau[:, k], x2, y2, params) for k in range(n)], 0)
        w2 = w if params["shared"] else rng.standard_normal((draws, d))
        P = lambda x, y: np.exp(-x @ x - y @ y) * np.cosh(w @ (x + y))
        T = lambda x, y: np.cos(w2 @ (x - y))
        z = (l1 * P(x1, y1) + (1 - l1) * T(x1, y1)) * (l2 * P(x2, y2) + (1 - l2) * T(x2, y2))
    else:
        p = dict(params, s=1) if mech == "oprf" else params
        b = rng.uniform(0, 2 * math.pi, draws)
        z = product(mech, w, x1, y1, p, b) * product(mech, w, x2, y2, p, b)
    # Effective sample size (sum|z|)^2 / sum z^2: tiny when a few draws dominate (heavy tails:
    # OPRF/GERF with |A| large in high d, where E e^{2A|w|^2} is carried by rare small |w|).
    ess = np.sum(np.abs(z)) ** 2 / max(np.sum(z * z), 1e-300)
    # Floor: some products are constant but for events of probability ~1e-9 that no sample sees
    # (keys ~ -query: the angular coefficient is 1 except on a wedge of angle ~1e-9).
    se = max(z.std() / math.sqrt(draws), 1e-7 * abs(z.mean()))
    return z.mean(), se, ess


def check_monte_carlo(refs, draws=200000):
    rng = np.random.default_rng(20240516)
    zs = []
    skipped = 0
    for case in refs["covariances"]:
        q = refs["quadruples"][case["quadruple"]]
        label = q["label"]
        if not ("|x|~0.01" in label or "|x|~0.5" in label or "1e-8 apart" in label or
                "orthogonal" in label or "~ -query" in label):
            continue
        x1, y1, x2, y2 = (np.array(q[k]) for k in ("x1", "y1", "x2", "y2"))
        params = case["params"]
        if case["mechanism"] in ("gerf", "oprf") and params["A"] >= 1 / 32:
            skipped += 1  # E[(Z1 Z2)^k] infinite for k >= 1/(8 Re A): no usable sample variance
            continue
        n = draws // 4 if QUICK else draws
        mean, se, ess = mc_second_moment(case["mechanism"], x1, y1, x2, y2, params, rng, n)
        if ess < n / 50:
            skipped += 1
            continue
        expected = stored_second_moment(case, q)
        if se == 0:
            continue
        z = (mean - expected) / se
        zs.append(z)
        if abs(z) > 4.5:
            print("  MC outlier", case["mechanism"], case["params"], label, z)
    zs = np.array(zs)
    print("monte carlo (covariances): %d cases, max |z| %.2f, mean z %.3f, std z %.3f; %d skipped "
          "(heavy tails: effective sample size < 2%%, or Re A >= 1/32)"
          % (len(zs), np.max(np.abs(zs)), zs.mean(), zs.std(), skipped))


# ---------------------------------------------------------------------------------------------
# 3. Attention -----------------------------------------------------------------------------------

def check_attention(refs, draws=200000):
    import mpmath
    import generate_attention_references as gen
    # (a) the factorised algorithm against every stored attention case
    worst = 0.0
    for case in refs["attention"]:
        X, Y, V = (np.array(case[k], dtype=float) for k in ("x", "y", "values"))
        mech = dict(case["params"], id=case["mechanism"])
        got = ar.predict(mech, X, Y, V)
        for i, row in enumerate(case["rows"]):
            for key in ("log_D", "log_T", "log_F", "log_var_D"):
                want = float(row[key])
                worst = max(worst, abs(got[key][i] - want) / max(1.0, abs(want)))
        want = float(case["log_unnormalised_mse"])
        worst = max(worst, abs(got["log_unnormalised_mse"] - want) / max(1.0, abs(want)))
    print("attention_reference.predict vs JSON: max |error| %.1e (logs, relative beyond 1)" % worst)
    # (b) Monte Carlo of the linearised errors on MC-friendly problems
    rng = random.Random(20240517)
    nrng = np.random.default_rng(20240518)
    zs = []
    for d, L in ((2, 3), (4, 5), (16, 4), (64, 4)):
        _, _, vs, xs, ys = gen.make_attention_problem(rng, d, L, 0.4 / d ** 0.25, 0.0, 0.0)  # |x| ~ 0.4
        X, Y, V = np.array(xs), np.array(ys), np.array(vs)
        for mechanism, params in gen.ATTENTION_MECHANISMS:
            with mpmath.workdps(30):
                ref = gen.attention_values(mechanism, params, xs, ys, vs)
            mech = ar.resolve(dict(params or {}, id=mechanism), X, Y)
            R = draws // 4 if QUICK else draws
            fq, fk = ar.feature_blocks(mech, R, d, nrng)
            Z = np.einsum("imc,jmc->ijm", fq(X), fk(Y))  # single-feature estimates
            SM = np.exp(X @ Y.T)
            for i in range(L):
                D = SM[i].sum()
                o = SM[i] @ V / D
                A = SM[i] / D
                eT = np.einsum("jm,jc->mc", Z[i], V - o) / D
                eF = (Z[i] - np.outer(A, Z[i].sum(0))) / D
                eD = Z[i].sum(0) - D
                for sample, key in ((np.sum(eT ** 2, 1), "log_T_%d"), (np.sum(eF ** 2, 0), "log_F_%d"),
                                    (eD ** 2, "log_varD_%d")):
                    scale = D ** 2 if key != "log_varD_%d" else 1.0
                    expected = math.exp(float(ref[key % i])) / scale
                    zs.append((sample.mean() - expected) / (sample.std() / math.sqrt(R)))
                    if abs(zs[-1]) > 4.5:
                        print("  attention MC outlier", d, mechanism, params, key % i, zs[-1])
    zs = np.array(zs)
    print("monte carlo (attention T, F, Var D): %d values, max |z| %.2f, mean z %.3f, std z %.3f"
          % (len(zs), np.max(np.abs(zs)), zs.mean(), zs.std()))


def main():
    refs = json.load(open(os.path.join(HERE, "attention_references.json")))
    check_attention(refs)
    check_quadrature(refs)
    check_monte_carlo(refs)


if __name__ == "__main__":
    main()
