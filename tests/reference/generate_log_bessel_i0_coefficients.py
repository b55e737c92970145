#!/usr/bin/env python3
"""Coefficients of core/math/log_bessel_i0.h, and their accuracy, with mpmath (50 digits).

  z <= 4: the Taylor coefficients 1/(k!)^2 of I0(z) = sum_k (z^2/4)^k / (k!)^2, k = 1..17.
  z > 4:  f(u) = sqrt(z) e^{-z} I0(z), u = 1/z, on each interval of z as a polynomial in
          w = (u - mid)/half in [-1, 1]: Chebyshev interpolation at n + 1 nodes, converted to
          monomial coefficients in 50-digit arithmetic, then rounded to double.

For each interval it prints the coefficients (shortest round-trip doubles) and the largest relative
error of the double evaluation (Horner) against mpmath at 400 points. Run from anywhere:
    python3 tests/reference/generate_log_bessel_i0_coefficients.py
"""

from mpmath import mp, mpf

mp.dps = 50

# (lowest z, highest z, degree n)
INTERVALS = [(4, 8, 16), (8, 16, 14), (16, 32, 10), (32, mp.inf, 10)]


def scaled_bessel(z):
    z = mpf(z)
    return mp.sqrt(z) * mp.exp(-z) * mp.besseli(0, z)


def chebyshev_monomials(g, n):
    """Monomial coefficients (in w) of the degree-n Chebyshev interpolant of g on [-1, 1]."""
    angles = [mp.pi * (j + mpf(1) / 2) / (n + 1) for j in range(n + 1)]
    values = [g(mp.cos(a)) for a in angles]
    cheb = [mp.fsum(v * mp.cos(k * a) for v, a in zip(values, angles)) * 2 / (n + 1)
            for k in range(n + 1)]
    cheb[0] /= 2
    monomials = [mpf(0)] * (n + 1)
    previous, current = [mpf(1)], [mpf(0), mpf(1)]  # T_0, T_1
    for k in range(n + 1):
        if k == 0:
            t = previous
        elif k == 1:
            t = current
        else:
            following = [mpf(0)] + [2 * c for c in current]
            for i, c in enumerate(previous):
                following[i] -= c
            previous, current = current, following
            t = current
        for i, c in enumerate(t):
            monomials[i] += cheb[k] * c
    return monomials


def horner(coefficients, w):
    r = 0.0
    for c in reversed(coefficients):
        r = r * w + c
    return r


def main():
    print("Taylor 1/(k!)^2, k = 1..17:")
    print(", ".join(repr(float(1 / mp.factorial(k) ** 2)) for k in range(1, 18)))
    for low, high, n in INTERVALS:
        u_low, u_high = 1 / mpf(high), 1 / mpf(low)
        mid, half = (u_low + u_high) / 2, (u_high - u_low) / 2

        def g(w):
            u = mid + half * w
            return scaled_bessel(1 / u) if u > 0 else 1 / mp.sqrt(2 * mp.pi)

        coefficients = [float(c) for c in chebyshev_monomials(g, n)]
        worst = 0.0
        for i in range(401):
            if high == mp.inf:
                z = float(low) * (1 + 1000 * (i / 400) ** 3)
            else:
                z = float(low) + (float(high) - float(low)) * i / 400
            w = (1.0 / z - float(mid)) / float(half)
            worst = max(worst, float(abs(horner(coefficients, w) / scaled_bessel(z) - 1)))
        print(f"z in ({low}, {high}], degree {n}, w = (u - {float(mid)!r}) / {float(half)!r}, "
              f"max relative error {worst:.3g}:")
        print(", ".join(repr(c) for c in coefficients))


if __name__ == "__main__":
    main()
