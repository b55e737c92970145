#!/usr/bin/env python3
"""High-precision references for the orf-norm-coupled closed forms (writes
norm_coupled_references.json).

Two orthogonal frequencies with antithetic chi_d norms r1 = F^-1(t), r2 = F^-1(1 - t): r1 u1 + r2 u2
is isotropic with squared norm W(t) = r1^2 + r2^2, so with b = d/2

  PosRF:  h_pair(d, u) = 1 - g,  g = e^{-u} E_t 0F1(; b; W u/4)        (u = |x + y|^2)
  TrigRF: C_pair(d, z2) = E_t 0F1(; b; -W z2/4) - e^{-z2}               (z2 = |x - y|^2)

and E_t g(W) = 2 int_{ln 2}^inf g(W(L)) e^{-L} dL with t = e^{-L}. Here F^-1 comes from solving
P(b, x) = t and Q(b, x) = t (regularised incomplete gamma) for x = r^2/2 by bracketed root finding at
high precision, and the integral from mpmath's Gauss-Legendre quadrature on panels of width 2.5 up
to where the rest is below 1e-60 of it; h is computed as 1 - g at high precision (no cancellation).
Every value is computed at two working precisions, which must agree to the stored digits.

Run from anywhere:  /usr/bin/python3 tests/reference/generate_norm_coupled_references.py
"""

import functools
import json
import math
import os

import mpmath
import scipy.special
from mpmath import mpf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "norm_coupled_references.json")
DIGITS = 32


def inverse_gammas(a, L):
    """x1, x2 with P(a, x1) = Q(a, x2) = e^{-L}: Newton steps on log P(a, e^y) + L (and log Q),
    whose derivative is +-x^a e^{-x}/(Gamma(a) P) (or Q), from SciPy's double-precision inverse
    (or, where e^{-L} underflows a double, the leading terms of the tails)."""
    a, L = mpf(a), mpf(L)

    def solve(upper_tail, guess):
        y = mpmath.log(guess)
        for _ in range(40):
            x = mpmath.exp(y)
            tail = (mpmath.gammainc(a, x, mpmath.inf, regularized=True) if upper_tail else
                    mpmath.gammainc(a, 0, x, regularized=True))
            slope = mpmath.exp(a * y - x - mpmath.loggamma(a)) / tail
            step = (mpmath.log(tail) + L) / (-slope if upper_tail else slope)
            y -= max(min(step, 2), -2)  # damped far from the root
            if abs(step) < mpf(10) ** (4 - mpmath.mp.dps):
                return mpmath.exp(y)
        raise ArithmeticError("inverse gamma did not converge at a = %s, L = %s" % (a, L))

    if L < 700:
        t = math.exp(-float(L))
        lower_guess = scipy.special.gammaincinv(float(a), t)
        upper_guess = scipy.special.gammainccinv(float(a), t)
    else:
        lower_guess = mpmath.exp((mpmath.loggamma(a + 1) - L) / a)
        upper_guess = L + (a - 1) * mpmath.log(L) - mpmath.loggamma(a)
    return solve(False, lower_guess), solve(True, upper_guess)


def squared_norm_sum(d, L):
    x1, x2 = inverse_gammas(mpf(d) / 2, L)
    return 2 * (x1 + x2)


def split_points(centre):
    """ln 2 to an end where the weight e^{-L} (times at most e^{sqrt(2 u L)}) is below 1e-60 of
    the result, in panels of width at most 2.5: mpmath's error estimates pass on wide panels over
    the PosRF peak near L = u/2 (width about sqrt(u)) while the value is off by 1e-12 (checked
    against d = 2, where g = 2 e^{-u/2} up to e^{-u}-small terms)."""
    step = max(mpf(1), mpmath.sqrt(centre))
    end = centre + 20 * step + 100
    panels = int(mpmath.ceil((end - mpmath.log(2)) / 2.5))
    return mpmath.linspace(mpmath.log(2), end, panels + 1)


def average(d, g, centre):
    """E_t g(W) = 2 int_{ln 2}^inf g(W(L)) e^{-L} dL."""
    value, error = mpmath.quad(lambda L: 2 * mpmath.exp(-L) * g(squared_norm_sum(d, L)),
                               split_points(centre), error=True, method="gauss-legendre")
    return value, error


@functools.lru_cache(maxsize=None)
def positive_mean(d, u, digits):
    """g = rho_pair e^{-u}; the deficit is h = 1 - g."""
    with mpmath.workdps(digits):
        u, b = mpf(u), mpf(d) / 2
        return average(d, lambda w: mpmath.exp(-u) * mpmath.hyp0f1(b, w * u / 4), u / 2)


def trig_covariance(d, z2, digits):
    with mpmath.workdps(digits):
        z2, b = mpf(z2), mpf(d) / 2
        mean, error = average(d, lambda w: mpmath.hyp0f1(b, -w * z2 / 4), 0)
        return mean - mpmath.exp(-z2), error


def agreed(f, d, x, guard, transform=lambda v: v):
    """f at two working precisions (DIGITS + guard + 4 and + 10), transformed; they must agree to
    DIGITS digits. The guard covers cancellation in the transform (1 - g loses up to 8 digits)."""
    value, _ = f(d, x, DIGITS + guard + 4)
    check, _ = f(d, x, DIGITS + guard + 10)
    with mpmath.workdps(DIGITS + guard + 10):
        value, check = transform(value), transform(check)
        if abs(value - check) > mpf(10) ** -DIGITS * abs(check):
            raise ArithmeticError("no agreement at d = %d, x = %g: %s vs %s" % (d, x, value, check))
        return mpmath.nstr(check, DIGITS + 2, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)


def main():
    positive, trig = [], []
    for d in (2, 5, 64):
        for u in (0.001, 0.5, 4.0, 40.0, 300.0):
            positive.append({"d": d, "u": u,
                             "deficit": agreed(positive_mean, d, u, 10, lambda g: 1 - g),
                             "mean": agreed(positive_mean, d, u, 10)})
            print("pos", d, u, positive[-1]["deficit"][:24], flush=True)
        for z2 in (0.01, 0.5, 2.0, 10.0, 30.0):
            trig.append({"d": d, "diff": z2, "covariance": agreed(trig_covariance, d, z2, 6)})
            print("trig", d, z2, trig[-1]["covariance"][:24], flush=True)
    out = {"description": "mpmath references for the orf-norm-coupled pair deficit (PosRF) and pair "
                          "covariance (TrigRF); generated by generate_norm_coupled_references.py",
           "mpmath_version": mpmath.__version__, "digits": DIGITS,
           "positive": positive, "trig": trig}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote %d + %d cases to %s" % (len(positive), len(trig), OUT))


if __name__ == "__main__":
    main()
