#!/usr/bin/env python3
"""High-precision references at extreme inputs (writes extreme_references.json): the cases where
a double evaluation overflowed (issue: OPRF's root at |x + y|^2 ~ 1e154 gave NaN, GERF's 50-digit
fallback overflowed at |x|^2 ~ 1e16). The printed formulas of generate_analytic_references.py, in
mpmath, whose exponent range is unbounded, at two working precisions. Run from anywhere:
    python3 tests/reference/generate_extreme_references.py
"""

import json
import math
import os
import sys

import mpmath
from mpmath import mp, mpf, mpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_analytic_references import (var_gerf_printed, var_oprf, var_pos,  # noqa: E402
                                          var_pos_hyp)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "extreme_references.json")


def log_at_two_precisions(f):
    """log f() where f's exponents reach ~1e300: the printed formulas exponentiate such numbers,
    so their absolute error needs ~300 digits more than the ~40 the result keeps."""
    values = []
    for dps in (400, 460):
        mp.dps = dps
        value = mpmath.mpc(f())
        assert abs(value.imag) <= abs(value.real) * mpf(10) ** -60, value
        values.append(mpmath.log(value.real))
    assert abs(values[0] - values[1]) <= abs(values[1]) * mpf(10) ** -40, values
    return float(values[1])


def main():
    cases = []
    # OPRF (A* of the pair) on both sides of the switch to the large-u form (u = 1e150) and far
    # beyond it, where (2u + d)^2 overflows a double. x = y keeps the part that depends on u (the
    # variance is e^{-|x-y|^2} expm1(g), g ~ (d/2) log(2u/d)) from drowning in |x - y|^2.
    for d, x0, same in ((1, 4.99999e74, True), (1, 5.00001e74, True), (1, 1e77, True),
                        (3, 1e77, True), (64, 3e100, True), (1024, 1e150, True),
                        (3, 1e77, False)):
        x = [x0] + [x0 / 3] * (d - 1)
        y = list(x) if same else [x0 / 2] * d
        cases.append({"mechanism": "oprf", "x": x, "y": y,
                      "log_variance": log_at_two_precisions(lambda: var_oprf(x, y, {}))})
    # GERF, s = +1, |x + y|^2 = 1e16, A = -1/2 + b i with b chosen so that Im z1 ~ pi: the two
    # terms of E cancel to ~1e-15 of e^{2e15}, the case the 50-digit fallback overflowed on.
    b = 25 * math.pi / (8 * 1e16)
    for a_re, a_im, s, x, y in ((-0.5, b, 1, [1e8], [0.0]), (-0.5, 3 * b, 1, [1e8], [0.0]),
                                (-0.25, 1e-3, -1, [1e8, 2.0], [0.0, -1.0])):
        params = {"A": a_re, "A_imag": a_im, "s": s}
        cases.append({"mechanism": "gerf", "x": x, "y": y, "params": params,
                      "log_variance": log_at_two_precisions(
                          lambda: var_gerf_printed(x, y, mpc(a_re, a_im), s))})
    # PosRF and its hyperbolic variant where |x - y|^2 and |x + y|^2 are both huge and their
    # difference, 4 x.y, lies below one ulp of them (x = 1e16, y = 0.5: the double evaluation
    # gave log Var = 0 instead of 2e16); up to the +-1e60 entries the README allows, with a
    # negative inner product too.
    for x, y in (([1e16], [0.5]), ([1e30, 3.0], [0.5, -2.0]), ([1e60], [1e59]),
                 ([1e20], [-0.5]), ([7.0, -1e12, 2.5], [0.25, 3e-3, -1.0])):
        for mechanism, variance in (("pos", var_pos), ("pos-hyp", var_pos_hyp)):
            cases.append({"mechanism": mechanism, "x": x, "y": y,
                          "log_variance": log_at_two_precisions(lambda: variance(x, y, {}))})
    with open(OUT, "w") as f:
        json.dump({"generator": os.path.basename(__file__), "cases": cases}, f, indent=1)
        f.write("\n")
    print("wrote %d cases to %s" % (len(cases), OUT))


if __name__ == "__main__":
    main()
