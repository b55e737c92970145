#!/usr/bin/python3
"""References for core/montecarlo/exact_tail: the kurtosis β₄ of the M-feature estimate and the
skewness of its squared error, (β₆ - 3β₄ + 2)/(β₄ - 1)^{3/2}, at 40 digits (mpmath), from raw
moments derived independently of the C++ term expansion:
  pos          Z ∝ exp(ωᵀp): E Z^k / (E Z)^k = exp(k(k-1)|p|²/2)               (lognormal)
  oprf, x=y=0  Z = (1-4A)^{d/2} exp(2A|ω|²): E Z^k = (1-4A)^{kd/2} (1-4kA)^{-d/2}
  trig         Z = cos(ωᵀq): E cos^k = 2^-k Σ_j C(k,j) exp(-(k-2j)²|q|²/2)
  trig-phase   Z = cos(ωᵀq) + cos(ωᵀp + 2b): E_b cos^j(v + 2b) = C(j, j/2)/2^j (j even, else 0)
The M-feature average's standardised cumulants are the one feature's over M^{j/2 - 1}.
usage: generate_exact_tail_references.py > exact_tail_references.json"""

import json

from mpmath import binomial, exp, mp, mpf, sqrt

mp.dps = 40


def trig_power(k, qq):
    return sum(binomial(k, j) * exp(-(k - 2 * j) ** 2 * qq / 2) for j in range(k + 1)) / 2 ** k


def raw_moments(case):
    kind = case["mechanism"]
    if kind == "pos":
        pp = mpf(case["sum"]) ** 2
        return [exp(k * (k - 1) * pp / 2) for k in range(7)]
    if kind == "oprf":
        a, d = mpf(case["A"]), case["d"]
        return [(1 - 4 * a) ** (k * d / mpf(2)) * (1 - 4 * k * a) ** (-d / mpf(2)) for k in range(7)]
    if kind == "trig":
        return [trig_power(k, mpf(case["difference"]) ** 2) for k in range(7)]
    if kind == "trig-phase":
        qq = mpf(case["difference"]) ** 2
        phase = [binomial(j, j // 2) / mpf(2) ** j if j % 2 == 0 else 0 for j in range(7)]
        return [sum(binomial(k, j) * trig_power(k - j, qq) * phase[j] for j in range(k + 1))
                for k in range(7)]
    raise ValueError(kind)


def tail(case):
    raw = raw_moments(case)
    mu = raw[1]
    m = [sum(binomial(k, j) * raw[j] * (-mu) ** (k - j) for j in range(k + 1)) for k in range(7)]
    M = case["features"]
    g3 = m[3] / m[2] ** mpf(1.5) / sqrt(M)
    g4 = (m[4] / m[2] ** 2 - 3) / M
    g6 = (m[6] / m[2] ** 3 - 15 * m[4] / m[2] ** 2 - 10 * (m[3] / m[2] ** mpf(1.5)) ** 2 + 30) / M ** 2
    beta4 = g4 + 3
    beta6 = g6 + 15 * g4 + 10 * g3 ** 2 + 15
    return beta4, (beta6 - 3 * beta4 + 2) / (beta4 - 1) ** mpf(1.5)


CASES = [
    {"mechanism": "pos", "sum": "0.4", "difference": "0.3", "features": 1, "d": 4},
    {"mechanism": "pos", "sum": "1.1", "difference": "0.3", "features": 1, "d": 4},
    {"mechanism": "pos", "sum": "1.3", "difference": "0.3", "features": 4, "d": 4},
    {"mechanism": "oprf", "A": "-0.1", "sum": "0", "difference": "0", "features": 1, "d": 64},
    {"mechanism": "oprf", "A": "-0.1", "sum": "0", "difference": "0", "features": 16, "d": 64},
    {"mechanism": "trig", "sum": "0.5", "difference": "1.5", "features": 1, "d": 4},
    {"mechanism": "trig", "sum": "0.5", "difference": "0.2", "features": 8, "d": 4},
    {"mechanism": "trig-phase", "sum": "0.8", "difference": "1.2", "features": 2, "d": 4},
]

if __name__ == "__main__":
    out = []
    for case in CASES:
        beta4, skew = tail(case)
        out.append(dict(case, kurtosis=mp.nstr(beta4, 30), error_skewness=mp.nstr(skew, 30)))
    print(json.dumps({"generator": "tests/reference/generate_exact_tail_references.py",
                      "cases": out}, indent=1))
