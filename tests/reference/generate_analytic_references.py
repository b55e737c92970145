#!/usr/bin/env python3
"""High-precision references for RFScope's analytic layer (writes analytic_references.json).

Every value is computed with mpmath from the exact binary doubles stored in the JSON (mpf(float) is
exact), straight from the formulas as printed in the papers -- never from the stable rearrangements
the C++ code uses -- so the two are independent:

  trig            CRT Sec. 2.2:   Var = 1/2 (1 - K^2)^2
  pos             CRT Sec. 2.2:   Var = exp(4 x.y) - K^2
  pos-hyp         E[Z^2] - K^2 for Z = e^{-|x|^2-|y|^2} cosh(w.(x+y)) (HRF Lemma 2.2 estimator)
  gerf, oprf      CRT Thm 3.2, eq. (6), alphas as printed, principal roots; OPRF with rho* of eq. (7)
  pois(-plus)     CRT Thm 3.4, eq. (11); lambda* = sqrt(S/d)
  geom(-plus)     CRT Thm 3.5, eq. (13); p* by a high-precision 1-D minimisation
  hybrid-angular  HRF Lemma 2.2 + Lemma 3.2 + Thm 3.1 (+ the shared-omega covariance term)
  trig under ORF  SimRF eq. (26): covariance of two features of one block, and M-feature variances
  hybrid-gaussian HRF Lemma 2.2 + Thm 3.1 (+ shared-omega term) with the reconstructed Gaussian
                  coefficient lambda = 1 - k, k = exp(-|x-y|^2/(2 b^2)), estimated by
                  1 - mean cos(tau.(x-y)/b): E l = 1 - k, E l^2 = (1-k)^2 + ((1+k^4)/2 - k^2)/n

Each value is evaluated at two working precisions (and more when they disagree) so that the stored
digits are correct even where the printed formula cancels catastrophically. Run from anywhere:
    python3 tests/reference/generate_analytic_references.py
"""

import json
import math
import os
import random

import mpmath
from mpmath import mp, mpf, mpc

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "analytic_references.json")
DIGITS = 40  # significant digits written for each reference value


# ---------------------------------------------------------------------------------------------
# Pairs (exact doubles) -----------------------------------------------------------------------

def gaussian_vector(rng, d, sigma):
    return [rng.gauss(0.0, 1.0) * sigma for _ in range(d)]


def make_pairs():
    rng = random.Random(20221128)
    pairs = []

    def add(label, x, y):
        pairs.append({"label": label, "x": [float(v) for v in x], "y": [float(v) for v in y]})

    for d in (1, 2, 3, 8, 64, 256, 1024):
        for sigma in (1e-3, 1e-2, 0.1, 0.5, 1.0, 2.0, 10.0):
            add("normal d=%d sigma=%g" % (d, sigma), gaussian_vector(rng, d, sigma),
                gaussian_vector(rng, d, sigma))
    # Traps.
    x = gaussian_vector(rng, 64, 1.0)
    add("x=y aligned, PosRF variance > 1e308", [3.0] * 64, [3.0] * 64)
    add("x ~ -y (|x+y| ~ 1e-8), d=64", x, [-v + 1e-9 * rng.gauss(0, 1) for v in x])
    x = gaussian_vector(rng, 3, 1.0)
    add("x ~ -y (|x+y| ~ 1e-12), d=3", x, [-v + 1e-12 * rng.gauss(0, 1) for v in x])
    x = gaussian_vector(rng, 64, 0.3)
    add("|x-y| ~ 1e-7, d=64", x, [v + 1.25e-8 * rng.gauss(0, 1) for v in x])
    x = gaussian_vector(rng, 8, 1.0)
    add("|x-y| ~ 1e-7, d=8", x, [v + 3.5e-8 * rng.gauss(0, 1) for v in x])
    x = gaussian_vector(rng, 1024, 3.0)
    add("kernel < 1e-308 and huge variance, d=1024 sigma=3", x, gaussian_vector(rng, 1024, 3.0))
    add("positive entries, d=8",
        [abs(v) + 0.1 for v in gaussian_vector(rng, 8, 0.5)],
        [abs(v) + 0.1 for v in gaussian_vector(rng, 8, 0.5)])
    return pairs


# ---------------------------------------------------------------------------------------------
# Printed formulas in mpmath ------------------------------------------------------------------

def geometry(x, y):
    X = [mpf(v) for v in x]
    Y = [mpf(v) for v in y]
    xx = mpmath.fsum(a * a for a in X)
    yy = mpmath.fsum(b * b for b in Y)
    xy = mpmath.fsum(a * b for a, b in zip(X, Y))
    diff = mpmath.fsum((a - b) ** 2 for a, b in zip(X, Y))
    return X, Y, xx, yy, xy, diff


def var_trig(x, y, params):
    _, _, _, _, _, diff = geometry(x, y)
    K = mpmath.exp(-diff / 2)
    return (1 - K * K) ** 2 / 2


def var_pos(x, y, params):
    _, _, _, _, xy, diff = geometry(x, y)
    return mpmath.exp(4 * xy) - mpmath.exp(-diff)


def var_pos_hyp(x, y, params):
    _, _, xx, yy, xy, diff = geometry(x, y)
    u = xx + yy + 2 * xy
    second = mpmath.exp(-2 * (xx + yy)) * (1 + mpmath.exp(2 * u)) / 2
    return second - mpmath.exp(-diff)


def var_gerf_printed(x, y, A, s):
    X, Y, xx, yy, xy, diff = geometry(x, y)
    d = len(X)
    A = mpc(A)
    w = mpmath.fsum((a + s * b) ** 2 for a, b in zip(X, Y))
    a1 = mpmath.sqrt(1 + 16 * A * A / (1 - 8 * A)) ** d
    a2 = s + s / (1 - 8 * A)
    a3 = (1 + 16 * abs(A) ** 2 / (1 - 8 * A.real)) ** (mpf(d) / 2)
    a4 = mpf(s) / 2 + (s + 2 * abs(1 - 4 * A)) / (2 * (1 - 8 * A.real))
    inner = (a1 * mpmath.exp(a2 * w)).real + a3 * mpmath.exp(a4 * w)
    return mpmath.exp(-(s + 1) * (xx + yy)) * inner / 2 - mpmath.exp(-diff)


def var_gerf(x, y, params):
    A = mpc(mpf(params["A"]), mpf(params.get("A_imag", 0.0)))
    return var_gerf_printed(x, y, A, int(params["s"]))


def oprf_rho(x, y):
    X, Y, _, _, _, _ = geometry(x, y)
    d = len(X)
    u = mpmath.fsum((a + b) ** 2 for a, b in zip(X, Y))
    return (mpmath.sqrt((2 * u + d) ** 2 + 8 * d * u) - 2 * u - d) / (4 * u)  # eq. (7)


def var_oprf(x, y, params):
    rho = oprf_rho(x, y)
    A = (1 - 1 / rho) / 8
    return var_gerf_printed(x, y, A, 1)


def oprf_params(x, y):
    rho = oprf_rho(x, y)
    return {"A": (1 - 1 / rho) / 8}


def pois_stat(X, Y):
    return mpmath.fsum((a * b) ** 2 for a, b in zip(X, Y))


def var_pois_at(x, y, lam):
    X, Y, xx, yy, xy, diff = geometry(x, y)
    d = len(X)
    S = pois_stat(X, Y)
    return mpmath.exp(lam * d + S / lam - xx - yy) - mpmath.exp(-diff)


def pois_lambda_star(x, y):
    X, Y, _, _, _, _ = geometry(x, y)
    return mpmath.sqrt(pois_stat(X, Y) / len(X))


def var_pois(x, y, params):
    lam = mpf(params["lambda"]) if "lambda" in params else pois_lambda_star(x, y)
    return var_pois_at(x, y, lam)


def var_geom_at(x, y, p):
    X, Y, xx, yy, xy, diff = geometry(x, y)
    d = len(X)
    prod = mpf(1)
    for a, b in zip(X, Y):
        prod *= mpmath.besseli(0, 2 * abs(a * b) / mpmath.sqrt(1 - p))
    return p ** (-d) * mpmath.exp(-xx - yy) * prod - mpmath.exp(-diff)


def geom_log_objective(x, y, p):
    # log of the first term of eq. (13): the part that depends on p.
    X, Y, _, _, _, _ = geometry(x, y)
    d = len(X)
    total = -d * mpmath.log(p)
    for a, b in zip(X, Y):
        total += mpmath.log(mpmath.besseli(0, 2 * abs(a * b) / mpmath.sqrt(1 - p)))
    return total


def geom_p_star(x, y):
    # Golden-section search on t = logit(p) (the objective is smooth and unimodal in t for these
    # pairs). The variance is stationary at p*, so p* to ~12 digits fixes it to far more.
    f = lambda t: geom_log_objective(x, y, 1 / (1 + mpmath.exp(-t)))
    lo, hi = mpf(-60), mpf(60)
    g = (mpmath.sqrt(5) - 1) / 2
    c, e = hi - g * (hi - lo), lo + g * (hi - lo)
    fc, fe = f(c), f(e)
    for _ in range(100):
        if fc < fe:
            hi, e, fe = e, c, fc
            c = hi - g * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, e, fe
            e = lo + g * (hi - lo)
            fe = f(e)
        if hi - lo < mpf(10) ** (-12):
            break
    t = (lo + hi) / 2
    return 1 / (1 + mpmath.exp(-t))


def var_geom(x, y, params):
    p = mpf(params["p"]) if "p" in params else geom_p_star(x, y)
    return var_geom_at(x, y, p)


def shifted(x, y, eps):
    # CRT Sec. 3.2.3 for one pair: c_l = min(x_l, y_l) - eps, exact in mpmath.
    X = [mpf(v) for v in x]
    Y = [mpf(v) for v in y]
    c = [min(a, b) - mpf(eps) for a, b in zip(X, Y)]
    return [a - cl for a, cl in zip(X, c)], [b - cl for b, cl in zip(Y, c)]


def var_pois_plus(x, y, params):
    xs, ys = shifted(x, y, params["epsilon"])
    lam = mpf(params["lambda"]) if "lambda" in params else pois_lambda_star(xs, ys)
    return var_pois_at(xs, ys, lam)


def var_geom_plus(x, y, params):
    xs, ys = shifted(x, y, params["epsilon"])
    p = mpf(params["p"]) if "p" in params else geom_p_star(xs, ys)
    return var_geom_at(xs, ys, p)


def var_hybrid_angular(x, y, params):
    # HRF, softmax kernel, m = 1, then converted to the Gaussian kernel (Var_K = e^{-|x|^2-|y|^2} MSE).
    X, Y, xx, yy, xy, diff = geometry(x, y)
    n = int(params["n"])
    shared = bool(params["shared"])
    z2 = xx + yy + 2 * xy
    SM = mpmath.exp(xy)
    f1 = mpmath.exp(z2) / SM ** 2 / 2
    f2 = mpmath.exp(z2) * SM ** 2 / 2
    f3 = lambda u2: (1 - mpmath.exp(-u2)) ** 2
    mse_trig = f1 * f3(diff)  # Lemma 2.2
    mse_pos = f2 * f3(z2)
    theta = mpmath.acos(xy / mpmath.sqrt(xx * yy))
    q = theta / mpmath.pi
    e_l2 = q * (q - q / n + mpf(1) / n)  # Lemma 3.2
    e_1ml2 = 1 - 2 * q + e_l2
    mse = e_l2 * mse_pos + e_1ml2 * mse_trig  # Thm 3.1
    if shared:
        mse += 2 * (q - e_l2) * SM ** 2 * (mpmath.cos(xx - yy) - 1)
    return mpmath.exp(-xx - yy) * mse


def var_hybrid_gaussian(x, y, params):
    # As var_hybrid_angular, with the moments of the Gaussian coefficient's estimator
    # l = 1 - (1/n) sum_j cos(tau_j.(x-y)/b): E cos = k, E cos^2 = (1 + E cos(2 tau.(x-y)/b))/2.
    X, Y, xx, yy, xy, diff = geometry(x, y)
    n = int(params["n"])
    b = mpf(params["bandwidth"])
    shared = bool(params["shared"])
    z2 = xx + yy + 2 * xy
    SM = mpmath.exp(xy)
    f1 = mpmath.exp(z2) / SM ** 2 / 2
    f2 = mpmath.exp(z2) * SM ** 2 / 2
    f3 = lambda u2: (1 - mpmath.exp(-u2)) ** 2
    mse_trig = f1 * f3(diff)  # Lemma 2.2
    mse_pos = f2 * f3(z2)
    k = mpmath.exp(-diff / (2 * b * b))
    e_l = 1 - k
    e_l2 = e_l ** 2 + ((1 + k ** 4) / 2 - k ** 2) / n
    e_1ml2 = 1 - 2 * e_l + e_l2
    mse = e_l2 * mse_pos + e_1ml2 * mse_trig  # Thm 3.1
    if shared:
        mse += 2 * (e_l - e_l2) * SM ** 2 * (mpmath.cos(xx - yy) - 1)
    return mpmath.exp(-xx - yy) * mse


# ---------------------------------------------------------------------------------------------
# Couplings of positive features (SimRF paper) -------------------------------------------------

def rho_orf(d, u):
    return mpmath.hyp1f1(d, mpf(d) / 2, u / 2)  # closed form of eq. (23)


def rho_simrf(d, u):
    # Eq. (24) summed term by term exactly as printed (its inner sum alternates; the working
    # precision is raised by stable_log until the result is stable).
    d = mpf(d)
    t = -1 / (d - 1)
    half = [mpmath.gamma((d + p) / 2) / mpmath.gamma((d + p + 1) / 2) for p in range(2000)]
    total, k = mpf(0), 0
    prefactor = mpmath.sqrt(mpmath.pi) / (mpmath.gamma(d / 2) * 2 ** (d - 1))
    while True:
        inner = mpmath.fsum(t ** p * half[p] / (mpmath.factorial(k - p) * mpmath.factorial(p))
                            for p in range(k + 1))
        term = mpmath.gamma(k + d) / mpmath.gamma(k + d / 2) * (u / 2) ** k * inner
        total += term
        k += 1
        if k > u + 10 and abs(term) < abs(total) * mpf(10) ** (-mp.dps - 5):
            break
    return prefactor * total


def rho_of(coupling, d, u):
    return rho_orf(d, u) if coupling == "orf" else rho_simrf(d, u)


def coupled_variance(coupling, d, m_total, u, diff):
    # Eq. (11) per block of m <= d features, ceil(M/d) independent blocks, last one partial:
    # Var = (1/M^2) sum_b m_b^2 MSE_b.
    S = (u + diff) / 2  # |x|^2 + |y|^2
    rho = rho_of(coupling, d, u)
    blocks = [d] * (m_total // d) + ([m_total % d] if m_total % d else [])
    total = mpf(0)
    for m in blocks:
        mse = mpmath.exp(-2 * S) / m * ((mpmath.exp(2 * u) - mpmath.exp(u)) +
                                        (m - 1) * (rho - mpmath.exp(u)))
        total += m * m * mse
    return total / (m_total * m_total)


def conformity_cases():
    cases = []
    for d in (2, 3, 8, 64, 256, 1024):
        for v in (1e-8, 1e-3, 0.5, 1.0, 3.0, 6.0, 10.0):
            u = v * v
            diff = 0.5 * u + 0.25
            for coupling in ("orf", "simrf"):
                log_rho = stable_log(rho_of, coupling, d, mpf(u))
                log_deficit = stable_log(lambda c, dd, uu: 1 - rho_of(c, dd, uu) * mpmath.exp(-uu),
                                         coupling, d, mpf(u))
                variances = {}
                for m_total in sorted({1, 2, d, 2 * d + 1, 3 * d}):
                    variances[str(m_total)] = fmt(stable_log(
                        coupled_variance, coupling, d, m_total, mpf(u), mpf(diff)))
                cases.append({"coupling": coupling, "d": d, "u": u, "diff": diff,
                              "log_conformity": fmt(log_rho), "log_deficit": fmt(log_deficit),
                              "log_variance": variances})
    return cases


def trig_orf_covariance(d, diff):
    # SimRF eq. (26) as printed: Delta MSE = (m-1)/m (e^{-z^2} - S), S = Gamma(d/2)/Gamma(d) sum_k
    # (-z^2)^k/(2^k k!) Gamma(k+d)/Gamma(k+d/2); the covariance of two features of one ORF block is
    # C = S - e^{-z^2}. The series alternates and cancels by ~e^{z^2}: stable_value raises the working
    # precision until the result no longer moves. Terms by their ratio (exact in mpmath).
    d = mpf(d)
    x = mpf(diff) / 2
    term, total, k = mpf(1), mpf(0), 0
    while True:
        total += term
        term *= -x * (k + d) / ((k + 1) * (k + d / 2))
        k += 1
        if k > 4 * x + 10 and abs(term) < abs(total) * mpf(10) ** (-mp.dps - 5):
            break
    return total - mpmath.exp(-mpf(diff))


def trig_orf_variance(d, m_total, diff):
    # M features in ceil(M/d) independent ORF blocks: Var = (M Var_1 + sum_b m_b(m_b-1) C) / M^2
    # with Var_1 = (1 - e^{-z^2})^2 / 2 (CRT Sec. 2.2).
    blocks = [d] * (m_total // d) + ([m_total % d] if m_total % d else [])
    pairs = sum(m * (m - 1) for m in blocks)
    var1 = (1 - mpmath.exp(-mpf(diff))) ** 2 / 2
    return (m_total * var1 + pairs * trig_orf_covariance(d, diff)) / (m_total * m_total)


def stable_value(fn, *args):
    """fn(*args), a signed value, correct to well over DIGITS digits (as stable_log)."""
    previous = None
    for dps in (60, 100, 160, 260, 420, 680):
        with mpmath.workdps(dps):
            value = fn(*args)
        if previous is not None and abs(value - previous) <= mpf(10) ** (-(DIGITS + 5)) * abs(value):
            return value
        previous = value
    raise ArithmeticError("reference did not converge")


def trig_orthogonality_cases():
    cases = []
    for d in (2, 3, 8, 64, 255, 1024):
        for z in (1e-3, 0.5, 1.0, 2.0, 3.5, 5.0, 7.0, 10.0):
            diff = z * z  # the double the C++ side receives as |x - y|^2
            variances = {}
            for m_total in sorted({2, d, 2 * d + 1}):
                variances[str(m_total)] = fmt(stable_log(trig_orf_variance, d, m_total, diff))
            cases.append({"d": d, "diff": diff,
                          "covariance": fmt(stable_value(trig_orf_covariance, d, diff)),
                          "log_variance": variances})
    return cases


def hrf_cases():
    # HRF Lemma 3.4 and Thm 3.5 as printed, in logs.
    cases = []
    for r in (0.5, 1.0, 1.5, 3.0):
        for theta in (1e-6, 0.3, 1.5, 3.0, 3.141592):
            for m, n in ((1, 1), (16, 8)):
                with mpmath.workdps(50):
                    R, T = mpf(r), mpf(theta)
                    def eps(t):
                        a = R * R * mpmath.sin(t / 2) ** 2
                        return mpmath.exp(2 * a) * (1 - mpmath.exp(-4 * a)) / mpmath.sqrt(2 * m)
                    W = mpmath.exp(2 * R * R) * (1 - mpmath.exp(-4 * R * R))
                    case = {"theta": theta, "r": r, "m": m, "n": n,
                            "log_trig": fmt(mpmath.log(eps(T))),
                            "log_pos_hyp": fmt(mpmath.log(eps(mpmath.pi - T))),
                            "log_max": fmt(mpmath.log(W / mpmath.sqrt(2 * m)))}
                    if r >= 1:
                        bound = W / (R * mpmath.sqrt(2 * m)) * mpmath.sqrt(
                            1 / mpmath.pi - 1 / (n * mpmath.pi) + 1 / (n * mpmath.sqrt(mpmath.pi)))
                        case["log_bound"] = fmt(mpmath.log(bound))
                cases.append(case)
    return cases


MECHANISMS = {
    "trig": var_trig,
    "pos": var_pos,
    "pos-hyp": var_pos_hyp,
    "gerf": var_gerf,
    "oprf": var_oprf,
    "pois": var_pois,
    "geom": var_geom,
    "pois-plus": var_pois_plus,
    "geom-plus": var_geom_plus,
    "hybrid-angular": var_hybrid_angular,
    "hybrid-gaussian": var_hybrid_gaussian,
}


def stable_log(fn, *args):
    """log(fn(*args)) correct to well over DIGITS digits: evaluate at rising precision until two
    successive precisions agree."""
    previous = None
    for dps in (60, 100, 160, 260, 420):
        with mpmath.workdps(dps):
            value = fn(*args)
            if value < 0:
                raise ArithmeticError("negative variance at %d digits" % dps)
            log_value = mpmath.log(value) if value > 0 else mpf("-inf")
        if previous is not None:
            if log_value == previous or abs(log_value - previous) <= mpf(10) ** (-(DIGITS + 5)) * max(
                    1, abs(log_value)):
                return log_value
        previous = log_value
    raise ArithmeticError("reference did not converge")


def fmt(value):
    if mpmath.isinf(value):
        return "-inf" if value < 0 else "inf"
    return mpmath.nstr(value, DIGITS, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)


def main():
    pairs = make_pairs()
    common_pairs = len(pairs)
    # Traps for the hybrids only: |x|^2 - |y|^2 tiny against |x|^2 (the shared-omega term's angle).
    pairs.append({"label": "x ~ y with |x| ~ |y|, d=2", "x": [0.3, 0.4], "y": [0.3, 0.4000001]})
    x = [0.1 * (i % 7) - 0.25 for i in range(64)]
    pairs.append({"label": "|x|^2 - |y|^2 ~ 1e-9, d=64", "x": x,
                  "y": [v + (1e-9 if i == 5 else 0.0) for i, v in enumerate(x)]})
    cases = []

    def add(mechanism, pair_index, params, label_extra=""):
        pair = pairs[pair_index]
        x, y = pair["x"], pair["y"]
        if mechanism in ("geom", "geom-plus") and "p" not in params:
            with mpmath.workdps(30):
                xs, ys = shifted(x, y, params["epsilon"]) if mechanism == "geom-plus" else (x, y)
                p_star = geom_p_star(xs, ys)
            log_var = stable_log(MECHANISMS[mechanism], x, y, dict(params, p=p_star))
        else:
            log_var = stable_log(MECHANISMS[mechanism], x, y, params)
        case = {"mechanism": mechanism, "pair": pair_index, "params": params,
                "log_variance": fmt(log_var),
                "label": pair["label"] + ((" " + label_extra) if label_extra else "")}
        with mpmath.workdps(60):
            if mechanism == "oprf":
                case["expected_params"] = {"A": fmt(oprf_params(x, y)["A"])}
            elif mechanism == "pois" and "lambda" not in params:
                case["expected_params"] = {"lambda": fmt(pois_lambda_star(x, y))}
            elif mechanism in ("geom", "geom-plus") and "p" not in params:
                case["expected_params"] = {"p": fmt(p_star)}
            elif mechanism == "pois-plus" and "lambda" not in params:
                xs, ys = shifted(x, y, params["epsilon"])
                case["expected_params"] = {"lambda": fmt(pois_lambda_star(xs, ys))}
        cases.append(case)

    n_normal = 49
    for i in range(common_pairs):
        for m in ("trig", "pos", "pos-hyp", "oprf"):
            add(m, i, {})
        for n, shared in ((1, False), (8, False), (8, True)):
            add("hybrid-angular", i, {"n": n, "shared": shared})
    for i in range(common_pairs):
        d = len(pairs[i]["x"])
        sigma_small = i < n_normal and (i % 7) <= 4  # sigma <= 1: keeps the products moderate
        add("pois", i, {})
        add("pois", i, {"lambda": 0.75})
        add("pois-plus", i, {"epsilon": 0.1})
        if d <= 256:
            add("geom", i, {"p": 0.3})
            add("geom-plus", i, {"epsilon": 0.1, "p": 0.5})
            if sigma_small or i >= n_normal:
                add("geom", i, {})
        for A, Ai, s in ((0.0, 0.0, 1), (0.0, 0.0, -1), (-0.05, 0.0, 1), (0.1, 0.0, -1),
                         (-0.1, 0.3, 1), (0.05, -0.2, -1), (0.12, 0.01, 1), (-2.5, 1.5, -1)):
            add("gerf", i, {"A": A, "A_imag": Ai, "s": s})
    # Appended after the older cases so that their order stays as it was.
    for i in range(common_pairs, len(pairs)):
        for n, shared in ((1, True), (8, True)):
            add("hybrid-angular", i, {"n": n, "shared": shared})
    for i in range(len(pairs)):
        for n, b, shared in ((1, 1.0, False), (8, 0.5, False), (1, 1.0, True), (8, 1.0, True),
                             (3, 4.0, True)):
            add("hybrid-gaussian", i, {"n": n, "bandwidth": b, "shared": shared})

    out = {
        "description": "mpmath references for the one-feature, Gaussian-kernel log-variance of each "
                       "mechanism; generated by generate_analytic_references.py",
        "mpmath_version": mpmath.__version__,
        "digits": DIGITS,
        "pairs": pairs,
        "cases": cases,
        "conformity": conformity_cases(),
        "hrf": hrf_cases(),
        "trig_orthogonality": trig_orthogonality_cases(),
    }
    with open(OUT, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote %d cases over %d pairs to %s" % (len(cases), len(pairs), OUT))


if __name__ == "__main__":
    main()
