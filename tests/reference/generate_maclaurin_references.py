#!/usr/bin/env python3
"""High-precision references for random Maclaurin features (writes maclaurin_references.json).

One feature of e^{x'y} = sum_n a_n (x'y)^n, a_n = 1/n! (Kar & Karnick 2012): a degree N ~ p(n), N
Rademacher vectors w_j in {+-1}^d, phi(x) = sqrt(a_N / p(N)) prod_j w_j'x. Then
E phi(x) phi(y) = e^{x'y} and
  E Z^2 = sum_n (a_n^2 / p(n)) c^n,  c = E[(w'x)^2 (w'y)^2] = |x|^2|y|^2 + 2(x'y)^2 - 2 sum_l x_l^2 y_l^2.
Everything here is computed from these definitions, not from the closed forms the C++ code uses
(core/mechanisms/maclaurin.h: e^{lambda + c/lambda} for Poisson(lambda), 2 I0(2 sqrt(2c)) for the
geometric law p(n) = 2^{-(n+1)}):
  - c from the formula above and, for d <= 10, by enumerating all 2^d sign vectors (must agree);
  - E Z^2 by summing the series in the log domain (log-sum-exp over n) until the tail bound
    t_n q / (1 - q), q = t_{n+1}/t_n (decreasing in n for both laws), is below 10^-(digits + 10)
    of the sum; the closed forms are then checked against the sums (to 10^-45, recorded in
    "closed_form_agreement");
  - the Gaussian-kernel log variance of one feature,
      log Var = -|x|^2 - |y|^2 + log(E Z^2 - e^{2 x'y}).
Each value is computed at 60 and at 80 digits and written with 40 significant digits once both
agree to 45.

Tables:
  "pairs"  label, x, y, c, and log Var for: the Poisson law at lambda* = sqrt(c) (the variance-
           optimal law, p(n) proportional to a_n c^{n/2}), the Poisson law at lambda = 0.5 and 3,
           and the geometric law. d = 1 (where lambda* gives zero variance for x'y > 0), 2, 3, 8,
           16, 64; small and large norms (log variances up to about +150), x = y, x = -y.
  "sets"   xs, ys: the data-driven lambda = sqrt(mean |x|^2 mean |y|^2) and the exact mean of c
           over all pairs (x_i, y_j) (equal where the off-diagonal second moments vanish).
"""

import itertools
import json
import random
import sys

import mpmath
from mpmath import mp, mpf

DIGITS = 40


def dot(a, b):
    return mp.fsum(p * q for p, q in zip(a, b))


def moment_c(x, y):
    xx, yy, xy = dot(x, x), dot(y, y), dot(x, y)
    return xx * yy + 2 * xy * xy - 2 * mp.fsum((p * q) ** 2 for p, q in zip(x, y))


def moment_c_enumerated(x, y):
    total = mpf(0)
    for signs in itertools.product((-1, 1), repeat=len(x)):
        px = mp.fsum(s * v for s, v in zip(signs, x))
        py = mp.fsum(s * v for s, v in zip(signs, y))
        total += (px * py) ** 2
    return total / 2 ** len(x)


def log_series(log_term, log_ratio):
    """log sum_n exp(log_term(n)); log_ratio(n) = log(t_{n+1}/t_n), decreasing in n."""
    n, acc = 0, mpf("-inf")
    tolerance = mpf(10) ** (-(mp.dps + 10))
    while True:
        t = log_term(n)
        acc = t if acc == mpf("-inf") else max(acc, t) + mpmath.log1p(mpmath.exp(-abs(acc - t)))
        q = mpmath.exp(log_ratio(n))
        if q < 1 and n > 0:
            tail = t + log_ratio(n) - mpmath.log(1 - q)
            if tail - acc < mpmath.log(tolerance):
                return acc
        n += 1


def log_second_moment_poisson(c, lam):
    # t_n = a_n^2 / p(n) c^n = e^lam (c/lam)^n / n!
    if c == 0:
        return lam
    lr = mpmath.log(c / lam)
    return log_series(lambda n: lam + n * lr - mpmath.loggamma(n + 1),
                      lambda n: lr - mpmath.log(n + 1))


def log_second_moment_geometric(c):
    # t_n = 2^{n+1} c^n / n!^2
    if c == 0:
        return mpmath.log(2)
    l2c = mpmath.log(2 * c)
    return log_series(lambda n: mpmath.log(2) + n * l2c - 2 * mpmath.loggamma(n + 1),
                      lambda n: l2c - 2 * mpmath.log(n + 1))


def log_variance(x, y, log_m2):
    s = dot(x, y)
    # log(E Z^2 - e^{2s}) - |x|^2 - |y|^2; -inf where the variance is zero.
    diff = log_m2 - 2 * s
    if diff <= mpf(10) ** (-(mp.dps - 5)):
        return None
    return log_m2 + mpmath.log(-mpmath.expm1(-diff)) - dot(x, x) - dot(y, y)


def pair_values(x, y):
    x = [mpf(v) for v in x]
    y = [mpf(v) for v in y]
    c = moment_c(x, y)
    if len(x) <= 10:
        assert abs(moment_c_enumerated(x, y) - c) <= mpf(10) ** (-(mp.dps - 10)) * (1 + c)
    out = {"c": c}
    agreement = mpf(0)
    lam_star = mpmath.sqrt(c)
    laws = [("poisson_optimal", lam_star), ("poisson_0.5", mpf("0.5")), ("poisson_3", mpf(3))]
    for name, lam in laws:
        if lam == 0:
            out[name] = None  # x or y is 0: N = 0 always, zero variance
            continue
        m2 = log_second_moment_poisson(c, lam)
        agreement = max(agreement, abs(m2 - (lam + c / lam)))
        out[name] = log_variance(x, y, m2)
    m2 = log_second_moment_geometric(c)
    agreement = max(agreement, abs(m2 - (mpmath.log(2) + mpmath.log(mpmath.besseli(0, 2 * mpmath.sqrt(2 * c))))))
    out["geometric"] = log_variance(x, y, m2)
    return out, agreement


def fmt(v):
    return None if v is None else mpmath.nstr(v, DIGITS, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)


def stable(fn, *args):
    """fn at 60 and at 80 digits; the values must agree to 45 digits."""
    results = []
    for dps in (60, 80):
        mp.dps = dps
        results.append(fn(*args))
    (a, agree_a), (b, _) = results
    for key in a:
        if a[key] is None or b[key] is None:
            assert a[key] is None and b[key] is None, key
            continue
        assert abs(a[key] - b[key]) <= mpf(10) ** -45 * max(1, abs(b[key])), key
    return b, agree_a


def make_pairs():
    rng = random.Random(20220121)
    pairs = []

    def gauss(d, sigma):
        return [rng.gauss(0, sigma) for _ in range(d)]

    pairs.append(("d=1 xy>0", [0.7], [1.3]))
    pairs.append(("d=1 xy<0", [0.7], [-1.3]))
    pairs.append(("d=2 zero y", [0.4, -0.2], [0.0, 0.0]))
    for d in (2, 3, 8, 16, 64):
        for sigma in (0.05, 0.3, 1.0):
            s = sigma / d ** 0.5 * 2
            pairs.append((f"d={d} normal sigma={sigma}", gauss(d, s), gauss(d, s)))
        x = gauss(d, 1.0 / d ** 0.5)
        pairs.append((f"d={d} x=y", x, list(x)))
        pairs.append((f"d={d} x=-y", x, [-v for v in x]))
    # Large norms: log variances up to about +150.
    x = gauss(16, 1.0)
    norm = sum(v * v for v in x) ** 0.5
    for r in (3.0, 6.0, 10.0):
        xs = [v * r / norm for v in x]
        pairs.append((f"d=16 x=y |x|={r:g}", xs, list(xs)))
        ys = gauss(16, r / 4)
        pairs.append((f"d=16 |x|={r:g} random y", xs, ys))
    return pairs


def make_sets():
    rng = random.Random(88)
    sets = []
    for d, lx, ly, sigma in ((4, 6, 5, 0.5), (16, 8, 8, 0.3), (64, 5, 7, 0.15)):
        xs = [[rng.gauss(0, sigma) for _ in range(d)] for _ in range(lx)]
        ys = [[rng.gauss(0.1, sigma) for _ in range(d)] for _ in range(ly)]
        sets.append((f"d={d} Lx={lx} Ly={ly} sigma={sigma}", xs, ys))
    return sets


def set_values(xs, ys):
    xs = [[mpf(v) for v in x] for x in xs]
    ys = [[mpf(v) for v in y] for y in ys]
    mx = mp.fsum(dot(x, x) for x in xs) / len(xs)
    my = mp.fsum(dot(y, y) for y in ys) / len(ys)
    mean_c = mp.fsum(moment_c(x, y) for x in xs for y in ys) / (len(xs) * len(ys))
    return {"lambda": mpmath.sqrt(mx * my), "mean_c": mean_c}


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else "maclaurin_references.json"
    pairs_out, worst = [], mpf(0)
    for label, x, y in make_pairs():
        values, agreement = stable(pair_values, x, y)
        worst = max(worst, agreement)
        entry = {"label": label, "x": x, "y": y}
        entry.update({k: fmt(v) for k, v in values.items()})
        pairs_out.append(entry)
    sets_out = []
    for label, xs, ys in make_sets():
        values, _ = stable(lambda a, b: (set_values(a, b), 0), xs, ys)
        entry = {"label": label, "xs": xs, "ys": ys}
        entry.update({k: fmt(v) for k, v in values.items()})
        sets_out.append(entry)
    assert worst < mpf(10) ** -45, worst
    data = {
        "description": "mpmath references for random Maclaurin features (softmax kernel e^{x'y}): c, "
                       "and the Gaussian-kernel log variance of one feature for the Poisson degree "
                       "law (lambda* = sqrt(c), 0.5, 3) and the geometric law 2^-(n+1), from the "
                       "series summed in the log domain; generated by "
                       "generate_maclaurin_references.py",
        "mpmath_version": mpmath.__version__,
        "digits": DIGITS,
        "closed_form_agreement": mpmath.nstr(worst, 3),
        "pairs": pairs_out,
        "sets": sets_out,
    }
    with open(output, "w") as f:
        json.dump(data, f)
        f.write("\n")
    print(f"{len(pairs_out)} pairs, {len(sets_out)} sets; closed forms agree to {mpmath.nstr(worst, 3)}")


if __name__ == "__main__":
    main()
