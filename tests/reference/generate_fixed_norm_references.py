#!/usr/bin/env python3
"""High-precision references for fixed-norm orthogonal random features (orf-fixed-norm); writes
fixed_norm_references.json.

Frequencies w_i = sqrt(d) u_i, (u_1..u_d) a Haar-random orthonormal frame. For fixed z, w.z is
sqrt(d)|z| times one coordinate of a uniform unit vector, so
  E cos(w.z)  = Omega_d(sqrt(d)|z|),  Omega_d(r) = Gamma(d/2) (2/r)^(d/2-1) J_(d/2-1)(r)
                                                = 0F1(; d/2; -r^2/4),
  E exp(w.s)  = 0F1(; d/2; d|s|^2/4)                   (the I-Bessel counterpart).
TrigRF (K^ = mean of cos(w_i.z)), a = sqrt(d)|z|:
  V = (1 + Omega_d(2a))/2 - Omega_d(a)^2,  C = Omega_d(sqrt(2) a) - Omega_d(a)^2
(two frame vectors: (u_1 +- u_2)/sqrt(2) are uniform unit vectors and
cos A cos B = [cos(A + B) + cos(A - B)]/2), M features in ceil(M/d) blocks,
P = floor(M/d) d(d-1) + r(r-1), r = M mod d:  Var_M = (M V + P C)/M^2,
bias = Omega_d(a) - e^{-|z|^2/2}.
PosRF (K^ = mean of exp(w_i.s - |x|^2 - |y|^2), s = x + y, c = |x|^2 + |y|^2), F(t) = 0F1(; d/2;
t d|s|^2/4): mean e^{-c} F(1), V = e^{-2c}(F(4) - F(1)^2), C = e^{-2c}(F(2) - F(1)^2).

The Bessel form and the 0F1 form are both evaluated (mpmath.besselj and mpmath.hyp0f1) and must
agree; each value is evaluated at rising precision until two precisions agree to 40 digits.

Stored:
  "omega"     Omega_d(r) for d in 1..1024 and r from 1e-8 to 10 sqrt(d)
  "trig"      mean, bias, log Var_M for M in {1, 3, d, 2d + 1} at (d, |z|^2)
  "positive"  log mean, bias, log Var_M for M in {1, d, 2d + 1} at (d, |x|^2 + |y|^2, |x+y|^2,
              |x-y|^2)

Run from anywhere:  /usr/bin/python3 tests/reference/generate_fixed_norm_references.py
"""

import json
import os

import mpmath
from mpmath import mpf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixed_norm_references.json")
DIGITS = 40


def fmt(value):
    if mpmath.isinf(value):
        return "-inf" if value < 0 else "inf"
    return mpmath.nstr(value, DIGITS, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)


def stable(fn, *args):
    previous = None
    for dps in (60, 100, 160, 260, 420, 700):
        with mpmath.workdps(dps):
            value = fn(*args)
        if previous is not None and abs(value - previous) <= mpf(10) ** (-(DIGITS + 5)) * abs(value):
            return value
        previous = value
    raise RuntimeError(f"no stable value for {fn.__name__}{args}")


def omega(d, r):
    d, r = mpf(d), mpf(r)
    if r == 0:
        return mpf(1)
    nu = d / 2 - 1
    series = mpmath.hyp0f1(d / 2, -r * r / 4)
    bessel = mpmath.gamma(d / 2) * (2 / r) ** nu * mpmath.besselj(nu, r)
    assert abs(series - bessel) <= mpf(10) ** (-mpmath.mp.dps + 15) * max(1, abs(series)), (d, r)
    return series


def blocks(d, m):
    return (m // d) * d * (d - 1) + (m % d) * (m % d - 1)


def trig_case(d, diff):
    def mean():
        return omega(d, mpmath.sqrt(d * mpf(diff)))

    def bias():
        return mean() - mpmath.exp(-mpf(diff) / 2)

    def log_variance(m):
        def f():
            a = mpmath.sqrt(d * mpf(diff))
            o1 = omega(d, a)
            v = (1 + omega(d, 2 * a)) / 2 - o1 * o1
            c = omega(d, mpmath.sqrt(2) * a) - o1 * o1
            total = (m * v + blocks(d, m) * c) / mpf(m) ** 2
            return mpmath.log(total) if total > 0 else mpf("-inf")
        return f

    out = {"d": d, "diff": diff, "mean": fmt(stable(mean)), "bias": fmt(stable(bias)),
           "log_variance": {}}
    for m in sorted({1, 3, d, 2 * d + 1}):
        value = stable(log_variance(m)) if d > 1 else mpf("-inf")
        out["log_variance"][str(m)] = fmt(value)
    return out


def positive_case(d, norms, sum_sq, diff):
    def f_t(t):
        return mpmath.hyp0f1(mpf(d) / 2, t * d * mpf(sum_sq) / 4)

    c = mpf(norms)

    def log_mean():
        return mpmath.log(f_t(1)) - c

    def bias():
        return mpmath.exp(-c) * f_t(1) - mpmath.exp(-mpf(diff) / 2)

    def log_variance(m):
        def f():
            f1 = f_t(1)
            total = mpmath.exp(-2 * c) * (m * (f_t(4) - f1 * f1) + blocks(d, m) * (f_t(2) - f1 * f1))
            return mpmath.log(total / mpf(m) ** 2)
        return f

    out = {"d": d, "norms": norms, "sum": sum_sq, "diff": diff, "log_mean": fmt(stable(log_mean)),
           "bias": fmt(stable(bias)), "log_variance": {}}
    for m in sorted({1, d, 2 * d + 1}):
        out["log_variance"][str(m)] = fmt(stable(log_variance(m)))
    return out


def main():
    omegas = []
    for d in (1, 2, 3, 4, 5, 8, 16, 64, 256, 1024):
        for scaled in (1e-8, 1e-3, 0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0):
            r = scaled * d ** 0.5
            omegas.append({"d": d, "r": r, "omega": fmt(stable(lambda: omega(d, mpf(r))))})
    trig = []
    for d in (1, 2, 3, 4, 8, 16, 64, 1024):
        for diff in (1e-12, 1e-6, 0.01, 0.25, 1.0, 2.25, 4.0, 9.0):
            trig.append(trig_case(d, diff))
    positive = []
    for d in (2, 4, 16, 64):
        for x2, y2, xy in ((0.01, 0.02, 0.005), (0.5, 0.3, 0.2), (1.0, 1.0, -0.5), (2.0, 1.5, 1.0)):
            positive.append(positive_case(d, x2 + y2, x2 + y2 + 2 * xy, x2 + y2 - 2 * xy))
    data = {
        "description": "mpmath references for orf-fixed-norm: the normalised Bessel function "
                       "Omega_d, TrigRF's and PosRF's mean, bias and M-feature log-variance; "
                       "generated by generate_fixed_norm_references.py",
        "mpmath_version": mpmath.__version__,
        "digits": DIGITS,
        "omega": omegas,
        "trig": trig,
        "positive": positive,
    }
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT}: {len(omegas)} omega, {len(trig)} trig, {len(positive)} positive cases")


if __name__ == "__main__":
    main()
