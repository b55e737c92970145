#!/usr/bin/env python3
"""High-precision references for random-phase Fourier features (writes trig_phase_references.json).

Estimator (Gaussian kernel, one feature): Z = 2 cos(w.x + b) cos(w.y + b), w ~ N(0, I_d),
b ~ U[0, 2 pi). With s = x + y, z = |x - y|:
  Z = cos(w.(x - y)) + cos(w.s + 2b),  E Z = K = e^{-z^2/2},
  Var Z = E cos^2(w.(x - y)) + 1/2 - K^2 = 1 + K(2(x - y))/2 - K^2 = 1 + K^4/2 - K^2.
Two features m != l with independent phases: the phase terms have mean zero given everything
else, so Cov(Z_m, Z_l) = Cov(cos w_m.(x - y), cos w_l.(x - y)) -- exactly the covariance of two
cos-form TrigRF features under the same coupling of (w_m, w_l):
  iid    0
  orf    C_orf = 1F1(d; d/2; -z^2/2) - e^{-z^2}                            (SimRF eq. 26)
  simrf  C_sim = (1/2) E_psi[1F1(d; d/2; -(1 + sin psi/(d-1)) z^2/2)
                          + 1F1(d; d/2; -(1 - sin psi/(d-1)) z^2/2)] - e^{-z^2},
         psi on [0, pi] with density sin^{d-1} psi / (sqrt(pi) Gamma(d/2)/Gamma((d+1)/2))
  (derivation: README-attention-derf.md; the same integral with +v^2 reproduces SimRF eq. 24).
M features in ceil(M/d) independent blocks of m_b <= d (the last one partial):
  Var_M = (M Var Z + sum_b m_b (m_b - 1) C) / M^2.
The sin/cos pair (TrigRF, one frequency = two numbers) has Var = (1 - K^2)^2 / 2; at an equal
count of numbers D (D/2 pairs against D phases) the pairs' variance (1 - K^2)^2 / D is below the
phases' (1 + K^4/2 - K^2) / D by (K^2 - K^4/2) / D >= 0.

Stored (40 digits, each value evaluated at rising precision until two precisions agree):
  "variance"  log Var Z at pairs given by (d, z^2) (the variance depends on z only)
  "coupled"   C_orf, C_sim and log Var_M for M in {2, d, 2d + 1} under iid / orf / simrf
  "budget"    log of the one-number variances of pairs and phases at equal budget

Independent check (check_trig_phase_references.py): Monte Carlo of the estimator with the same
orthogonal / simplex blocks as RFScope (Haar rotation, chi_d norms, corrected SimRF eq. 9 simplex)
(1e5 estimates per case, 2e4 at d = 64): 165 coupled variances, max |z| = 3.00, mean z 0.08,
std z 0.95; the simrf integral with +v^2 reproduces SimRF eq. 24 (PosRF conformity, as summed in
generate_analytic_references.py) to 30 digits at d = 2, 3, 8, 64 and v = 0.5, 1, 3.

Run from anywhere:  /usr/bin/python3 tests/reference/generate_trig_phase_references.py
"""

import json
import os

import mpmath
from mpmath import mpf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trig_phase_references.json")
DIGITS = 40


def fmt(value):
    if mpmath.isinf(value):
        return "-inf" if value < 0 else "inf"
    return mpmath.nstr(value, DIGITS, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)


def stable(fn, *args):
    previous = None
    for dps in (60, 100, 160, 260, 420):
        with mpmath.workdps(dps):
            value = fn(*args)
        if previous is not None and abs(value - previous) <= mpf(10) ** (-(DIGITS + 5)) * abs(value):
            return value
        previous = value
    raise ArithmeticError("reference did not converge")


def variance_one(z2):
    # E Z^2 - K^2 with E Z^2 = E cos^2(w.(x-y)) + E cos^2(w.s + 2b) = (1 + e^{-2 z^2})/2 + 1/2
    K = mpmath.exp(-mpf(z2) / 2)
    return (1 + mpmath.exp(-2 * mpf(z2))) / 2 + mpf(1) / 2 - K * K


def hyp1f1(a, b, x):
    """1F1(a; b; x): mpmath's, or where it refuses (an exact zero such as 1F1(2; 1; -1)) the Taylor
    series with enough guard digits for the cancellation of x < 0."""
    try:
        return mpmath.hyp1f1(a, b, x)
    except ValueError:
        return hyp1f1_series(a, b, x)


def hyp1f1_series(a, b, x):
    guard = int(abs(x) / 2.3) + 15 if x < 0 else 15
    with mpmath.workdps(mpmath.mp.dps + guard):
        a, b, x = mpf(a), mpf(b), mpf(x)
        term, total, k = mpf(1), mpf(0), 0
        while True:
            total += term
            term *= (a + k) * x / ((b + k) * (k + 1))
            k += 1
            if k > abs(x) + 10 and abs(term) < mpf(10) ** (-mpmath.mp.dps) * max(abs(total), 1):
                break
    return +total


_CACHE = {}


def cached(fn, d, z2):
    key = (fn.__name__, d, z2, mpmath.mp.dps)
    if key not in _CACHE:
        _CACHE[key] = fn(d, z2)
    return _CACHE[key]


def c_orf(d, z2):
    return hyp1f1(d, mpf(d) / 2, -mpf(z2) / 2) - mpmath.exp(-mpf(z2))


def c_simrf(d, z2):
    d = mpf(d)
    z2 = mpf(z2)
    norm = mpmath.sqrt(mpmath.pi) * mpmath.gamma(d / 2) / mpmath.gamma((d + 1) / 2)

    def f(psi):
        t = mpmath.sin(psi) / (d - 1)
        return mpmath.sin(psi) ** (d - 1) * (hyp1f1(d, d / 2, -(1 + t) * z2 / 2) +
                                             hyp1f1(d, d / 2, -(1 - t) * z2 / 2)) / 2
    return mpmath.quad(f, [0, mpmath.pi / 4, mpmath.pi / 2, 3 * mpmath.pi / 4, mpmath.pi]) / norm - \
        mpmath.exp(-z2)


def coupled_variance(coupling, d, m_total, z2):
    var1 = variance_one(z2)
    if coupling == "iid" or d == 1:
        return var1 / m_total
    c = cached(c_orf, d, z2) if coupling == "orf" else cached(c_simrf, d, z2)
    blocks = [d] * (m_total // d) + ([m_total % d] if m_total % d else [])
    pairs = sum(m * (m - 1) for m in blocks)
    return (m_total * var1 + pairs * c) / (m_total * m_total)


def main():
    # Values leave converge() as mpf numbers; everything computed from them afterwards (logs,
    # means) must not fall back to mpmath's default 15 digits.
    mpmath.mp.dps = 80
    variance = []
    for d in (1, 2, 3, 8, 64, 256):
        for z in (0.0, 1e-8, 1e-3, 0.3, 1.0, 2.0, 5.0, 30.0):
            z2 = z * z
            variance.append({"d": d, "diff": z2, "log_variance": fmt(stable(
                lambda: mpmath.log(variance_one(z2))))})
    coupled = []
    for d in (2, 3, 8, 64):
        for z in (1e-3, 0.5, 1.0, 2.0, 4.0):
            z2 = z * z
            entry = {"d": d, "diff": z2,
                     "c_orf": fmt(stable(cached, c_orf, d, z2)),
                     "c_simrf": fmt(stable(cached, c_simrf, d, z2)), "log_variance": {}}
            for coupling in ("iid", "orf", "simrf"):
                entry["log_variance"][coupling] = {
                    str(m): fmt(stable(lambda: mpmath.log(coupled_variance(coupling, d, m, z2))))
                    for m in sorted({2, d, 2 * d + 1})}
            coupled.append(entry)
    budget = []
    for z in (0.0, 0.5, 1.0, 1.5, 3.0):
        z2 = mpf(z * z)
        with mpmath.workdps(60):
            K2 = mpmath.exp(-z2)
            pairs = (1 - K2) ** 2  # D numbers = D/2 frequencies: Var = (1 - K^2)^2 / D
            phases = 1 + K2 * K2 / 2 - K2  # D phases: Var = (1 + K^4/2 - K^2) / D
            budget.append({"diff": z * z,
                           "log_pair_variance_per_number": fmt(mpmath.log(pairs) if pairs
                                                               else mpf("-inf")),
                           "log_phase_variance_per_number": fmt(mpmath.log(phases)),
                           "difference_per_number": fmt(K2 - K2 * K2 / 2)})
    out = {"description": "mpmath references for random-phase Fourier features (trig-phase): "
                          "one-feature log-variance, block-coupled covariances and variances; "
                          "generated by generate_trig_phase_references.py",
           "mpmath_version": mpmath.__version__, "digits": DIGITS,
           "variance": variance, "coupled": coupled, "budget": budget}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote %d variances, %d coupled cases to %s" % (len(variance), len(coupled), OUT))


if __name__ == "__main__":
    main()
