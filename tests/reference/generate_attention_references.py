#!/usr/bin/env python3
"""High-precision references for random-feature attention (writes attention_references.json).

Two tables, both for ONE random feature (divide every variance-type value by M for M i.i.d.
features), every value from closed_forms_mp.py (plain Gaussian-integral formulas, no stable
rearrangement) at rising mpmath precision until two precisions agree to DIGITS + 5 digits:

  "covariances"  Cov(Z(x1, y1), Z(x2, y2)) of the Gaussian-kernel one-feature estimates that share
                 their randomness, as sign and log|Cov|, over the 4-point configurations in
                 "quadruples": same query (x1 = x2: an attention row), same key (y1 = y2), general,
                 and the diagonal (x1 = x2, y1 = y2: the variance, which must equal
                 analytic_references.json). The angular hybrid has a closed form only for a shared
                 query or key (trivariate orthant probability), so it skips the general ones.

  "attention"    small softmax-attention problems (L = 3..8 queries/keys/values, d = 2..64).
                 Queries and keys are scaled by d^{-1/4} as in attention; the stored "x"/"y" are
                 those scaled vectors (the kernel inputs) and the raw "queries"/"keys" for
                 reference. Softmax kernel SM_ij = exp(x_i.y_j), one feature, covariances
                 C^i_jk = Cov(SM^_ij, SM^_ik) (query i shared). Per row i:
                   D_i = sum_j SM_ij, o_i = sum_j SM_ij v_j / D_i, A_ij = SM_ij / D_i,
                   T_i = sum_jk C^i_jk (v_j - o_i).(v_k - o_i)        (linearised output error)
                   F_i = sum_jk C^i_jk (delta_jk - A_ij - A_ik + |A_i|^2)  (linearised row error)
                   Var D_i = sum_jk C^i_jk,
                 so that with M features the delta-method predictions are
                   E|o^_i - o_i|^2 ~ T_i / (M D_i^2),  E|A^_i - A_i|^2 ~ F_i / (M D_i^2),
                 and the exact expected squared error of the unnormalised attention matrix is
                   sum_ij Var SM^_ij / M.
                 Data-driven parameters (oprf: CRT eq. 8; sderf/aderf: README-attention-derf.md)
                 are computed from the case's scaled sets at the working precision; their values
                 are stored under "expected_params".

Independent check (check_attention_references.py; nothing there uses a closed form):
  quadrature  every covariance at d <= 2 by Gauss-Hermite product rules (two node counts) of the
              estimator's definition: max relative error 3.5e-14 over the 285 cases whose integrand
              cancels by less than 100, max |error| / E|Z1 Z2| 1.1e-14 over 289; 71 cases (oscillating
              trig-type integrands at |x - y| >~ 3, cancelling by more than 1e6) are beyond double
              precision quadrature;
  Monte Carlo every covariance case with |x| <= 0.5 (and the traps), 2e5 draws: 336 cases, max |z|
              3.01, mean z 0.02, std z 0.99; 104 skipped for heavy tails (effective sample size < 2%,
              e.g. OPRF/GERF with |A| >= 0.3 at d = 64, or Re A >= 1/32);
  attention   per-row T, F and Var D of MC-friendly problems (|x| ~ 0.4, d = 2, 4, 16, 64, every
              mechanism) against Monte Carlo of the linearised errors of 2e5 single features drawn by
              attention_reference.feature_blocks: 576 values, max |z| 2.83, mean z -0.16, std z 0.98
              (the slightly negative mean is the usual skew of squared heavy-ish errors);
  NumPy       attention_reference.predict (factorised algorithm) and predict_direct reproduce every
              attention value to 1.1e-12 (relative, logs).

Run from anywhere:  /usr/bin/python3 tests/reference/generate_attention_references.py
"""

import json
import os
import random
import sys

import mpmath
from mpmath import mpf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import closed_forms_mp as cf  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "attention_references.json")
DIGITS = 40
PRECISIONS = (60, 100, 160, 260, 420, 680, 1100)


def fmt(value):
    if mpmath.isinf(value):
        return "-inf" if value < 0 else "inf"
    return mpmath.nstr(value, DIGITS, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)


def converge(fn):
    """fn() -> dict of mpf values; evaluate at rising precision until every value agrees with the
    previous precision to DIGITS + 5 significant digits (relative; exact zeros must repeat)."""
    previous = None
    for dps in PRECISIONS:
        with mpmath.workdps(dps):
            values = fn()
        if previous is not None:
            ok = True
            for key, v in values.items():
                p = previous[key]
                if v == p:
                    continue
                if abs(v - p) > mpf(10) ** (-(DIGITS + 5)) * abs(v):
                    ok = False
                    break
            if ok:
                return values
        previous = values
    raise ArithmeticError("reference did not converge")


# ---------------------------------------------------------------------------------------------
# Covariance table -------------------------------------------------------------------------------

def gaussian(rng, d, scale):
    return [rng.gauss(0.0, 1.0) * scale / d ** 0.5 for _ in range(d)]


def make_quadruples():
    rng = random.Random(20240514)
    quads = []

    def add(label, x1, y1, x2, y2):
        quads.append({"label": label, "x1": [float(v) for v in x1], "y1": [float(v) for v in y1],
                      "x2": [float(v) for v in x2], "y2": [float(v) for v in y2]})

    for d in (1, 2, 4, 16, 64):
        for norm in (0.01, 0.5, 1.5, 4.0):  # typical |x| of each vector
            x, y1, y2, x2 = (gaussian(rng, d, norm) for _ in range(4))
            add("same query d=%d |x|~%g" % (d, norm), x, y1, x, y2)
            add("same key d=%d |x|~%g" % (d, norm), x, y1, x2, y1)
            add("general d=%d |x|~%g" % (d, norm), x, y1, x2, y2)
        x, y = gaussian(rng, d, 1.0), gaussian(rng, d, 1.0)
        add("diagonal (variance) d=%d" % d, x, y, x, y)
    # Traps.
    x = gaussian(rng, 16, 1.0)
    add("same query, keys ~ -query (pos covariance ~ 0), d=16", x,
        [-v + 1e-9 for v in x], x, [-v + 1e-9 * (i % 3 - 1) for i, v in enumerate(x)])
    x, y = gaussian(rng, 4, 1.0), gaussian(rng, 4, 1.0)
    add("same query, keys 1e-8 apart, d=4", x, y, x, [v + 1e-8 for v in y])
    x = gaussian(rng, 64, 3.0)
    add("same query, huge norms |x|~9, d=64", x, gaussian(rng, 64, 9.0), x, gaussian(rng, 64, 9.0))
    # (x1 - y1).(x2 - y2) ~ 0: trig covariance ~ 2 K1 K2 ((x1-y1).(x2-y2)/2)^2.
    add("orthogonal differences, d=2", [0.3, 0.1], [0.3, 0.6], [0.2, -0.4], [0.7, -0.4 + 1e-7])
    return quads


GERF_PARAMS = ({"A": -0.1, "A_imag": 0.2, "s": 1}, {"A": 0.05, "A_imag": -0.3, "s": -1},
               {"A": 0.02, "A_imag": 0.0, "s": -1}, {"A": -0.6, "A_imag": 0.4, "s": 1})

COVARIANCE_MECHANISMS = (
    [("trig", {}), ("pos", {}), ("pos-hyp", {}), ("trig-phase", {}),
     ("oprf", {"A": -0.3}), ("oprf", {"A": 0.05})] +
    [("gerf", p) for p in GERF_PARAMS] +
    [("hybrid-angular", {"n": 8, "shared": True}), ("hybrid-angular", {"n": 1, "shared": False}),
     ("hybrid-gaussian", {"n": 4, "bandwidth": 1.0, "shared": True}),
     ("hybrid-gaussian", {"n": 2, "bandwidth": 0.5, "shared": False})])


def covariance_cases(quads):
    cases = []
    for qi, q in enumerate(quads):
        general = q["x1"] != q["x2"] and q["y1"] != q["y2"]
        for mechanism, params in COVARIANCE_MECHANISMS:
            if mechanism == "hybrid-angular" and general:
                continue
            if mechanism == "hybrid-angular" and (not any(q["x1"]) or not any(q["y1"])):
                continue

            def value():
                c = cf.covariance(mechanism, q["x1"], q["y1"], q["x2"], q["y2"], params)
                return {"c": c}

            c = converge(value)["c"]
            sign = 1 if c > 0 else (-1 if c < 0 else 0)
            cases.append({"mechanism": mechanism, "params": params, "quadruple": qi,
                          "sign": sign,
                          "log_abs_covariance": fmt(mpmath.log(abs(c)) if c else mpf("-inf"))})
    return cases


# ---------------------------------------------------------------------------------------------
# Attention table --------------------------------------------------------------------------------

ATTENTION_CONFIGS = (
    # label, d, L, query/key entry scale, value offset, key mean shift
    ("d=2 L=3 unit entries", 2, 3, 1.0, 0.0, 0.0),
    ("d=4 L=5 unit entries", 4, 5, 1.0, 0.0, 0.0),
    ("d=16 L=6 entries 1.5", 16, 6, 1.5, 0.0, 0.0),
    ("d=64 L=8 unit entries", 64, 8, 1.0, 0.0, 0.0),
    ("d=64 L=4 large entries 3 (|x|^2 ~ 72)", 64, 4, 3.0, 0.0, 0.0),
    ("d=4 L=7 small entries 0.1, values offset by 100", 4, 7, 0.1, 100.0, 0.0),
    ("d=16 L=3 keys shifted by 0.5", 16, 3, 1.0, 0.0, 0.5),
)

ATTENTION_MECHANISMS = (
    ("trig", {}), ("pos", {}), ("pos-hyp", {}), ("trig-phase", {}), ("oprf", None),
    ("gerf", {"A": -0.1, "A_imag": 0.2, "s": 1}), ("gerf", {"A": 0.02, "A_imag": -0.1, "s": -1}),
    ("hybrid-angular", {"n": 4, "shared": True}),
    ("hybrid-gaussian", {"n": 2, "bandwidth": 1.0, "shared": False}),
    ("sderf", None), ("aderf", None), ("aderf", {"dense_a": True}),
)


def make_attention_problem(rng, d, L, scale, offset, shift):
    queries = [[rng.gauss(0.0, scale) for _ in range(d)] for _ in range(L)]
    keys = [[rng.gauss(shift, scale) for _ in range(d)] for _ in range(L)]
    values = [[offset + rng.gauss(0.0, 1.0) for _ in range(3)] for _ in range(L)]
    f = d ** -0.25
    x = [[v * f for v in q] for q in queries]  # the stored kernel inputs (doubles)
    y = [[v * f for v in k] for k in keys]
    return queries, keys, values, x, y


def resolved_parameters(mechanism, params, xs, ys):
    """(mechanism id for closed_forms_mp, parameters, expected_params) at the working precision."""
    if mechanism == "oprf":
        a = cf.data_driven_oprf_a(xs, ys)
        return "oprf", {"A": a}, {"A": a}
    if mechanism in ("sderf", "aderf"):
        if mechanism == "sderf":
            p = cf.sderf_parameters(xs, ys)
        else:
            p = cf.aderf_parameters(xs, ys, dense_a=bool((params or {}).get("dense_a")))
        expected = {"objective": p["objective"]}
        for i, r in enumerate(sorted(p["r"])):
            expected["r_%d" % i] = r
        return "derf", {"context": cf.derf_context(p["A_matrix"], p["Q_matrix"])}, expected
    return mechanism, params, {}


def attention_values(mechanism, params, xs, ys, vs):
    """Every attention reference value (mpf) of one case at the working precision."""
    X = [cf.vec(x) for x in xs]
    Y = [cf.vec(y) for y in ys]
    V = [cf.vec(v) for v in vs]
    L = len(X)
    mech, p, expected = resolved_parameters(mechanism, params, xs, ys)
    m2 = cf.SECOND_MOMENTS[mech]
    out = {}
    for key, v in expected.items():
        out["param_" + key] = v
    total_var, exact_sq, frob_exact, out_pred, frob_pred, out_norm = (mpf(0),) * 6
    for i in range(L):
        x = X[i]
        nx = cf.norm2(x)
        sm = [mpmath.exp(cf.dot(x, y)) for y in Y]
        kk = [cf.kernel(x, y) for y in Y]
        # Softmax covariance = e^{(|x|^2 + |y_j|^2)/2} e^{(|x|^2 + |y_k|^2)/2} Gaussian covariance.
        scale = [mpmath.exp((nx + cf.norm2(y)) / 2) for y in Y]
        C = [[scale[j] * scale[k] * (m2(x, Y[j], x, Y[k], p) - kk[j] * kk[k]) for k in range(L)]
             for j in range(L)]
        D = mpmath.fsum(sm)
        o = [mpmath.fsum(sm[j] * V[j][c] for j in range(L)) / D for c in range(len(V[0]))]
        A = [s / D for s in sm]
        a2 = mpmath.fsum(t * t for t in A)
        W = [[V[j][c] - o[c] for c in range(len(o))] for j in range(L)]
        T = mpmath.fsum(C[j][k] * cf.dot(W[j], W[k]) for j in range(L) for k in range(L))
        F = mpmath.fsum(C[j][k] * ((1 if j == k else 0) - A[j] - A[k] + a2)
                        for j in range(L) for k in range(L))
        VD = mpmath.fsum(C[j][k] for j in range(L) for k in range(L))
        out["log_D_%d" % i] = mpmath.log(D)
        for c in range(len(o)):
            out["o_%d_%d" % (i, c)] = o[c]
        out["log_T_%d" % i] = mpmath.log(T)
        out["log_F_%d" % i] = mpmath.log(F)
        out["log_varD_%d" % i] = mpmath.log(VD)
        total_var += mpmath.fsum(C[j][j] for j in range(L))
        exact_sq += mpmath.fsum(s * s for s in sm)
        frob_exact += a2
        out_pred += T / D ** 2
        frob_pred += F / D ** 2
        out_norm += cf.dot(o, o)
    out["log_unnormalised_mse"] = mpmath.log(total_var)
    out["log_unnormalised_norm2"] = mpmath.log(exact_sq)
    out["log_output_mse"] = mpmath.log(out_pred)
    out["log_output_norm2"] = mpmath.log(out_norm)
    out["log_attention_mse"] = mpmath.log(frob_pred)
    out["log_attention_norm2"] = mpmath.log(frob_exact)
    return out


def attention_cases():
    rng = random.Random(20240515)
    cases = []
    for label, d, L, scale, offset, shift in ATTENTION_CONFIGS:
        queries, keys, values, xs, ys = make_attention_problem(rng, d, L, scale, offset, shift)
        for mechanism, params in ATTENTION_MECHANISMS:
            vals = converge(lambda: attention_values(mechanism, params, xs, ys, values))
            rows = []
            for i in range(L):
                rows.append({"log_D": fmt(vals["log_D_%d" % i]),
                             "o": [fmt(vals["o_%d_%d" % (i, c)]) for c in range(len(values[0]))],
                             "log_T": fmt(vals["log_T_%d" % i]),
                             "log_F": fmt(vals["log_F_%d" % i]),
                             "log_var_D": fmt(vals["log_varD_%d" % i])})
            case = {"label": label, "mechanism": mechanism, "params": params or {}, "d": d,
                    "queries": queries, "keys": keys, "values": values, "x": xs, "y": ys,
                    "rows": rows}
            for key in ("log_unnormalised_mse", "log_unnormalised_norm2", "log_output_mse",
                        "log_output_norm2", "log_attention_mse", "log_attention_norm2"):
                case[key] = fmt(vals[key])
            expected = {k[len("param_"):]: fmt(v) for k, v in vals.items() if k.startswith("param_")}
            if expected:
                case["expected_params"] = expected
            cases.append(case)
            print("  attention %-45s %-16s %s" % (label, mechanism, json.dumps(params or {})),
                  flush=True)
    return cases


def main():
    # Values leave converge() as mpf numbers; everything computed from them afterwards (logs,
    # means) must not fall back to mpmath's default 15 digits.
    mpmath.mp.dps = 80
    quads = make_quadruples()
    covs = covariance_cases(quads)
    print("covariances: %d cases over %d quadruples" % (len(covs), len(quads)), flush=True)
    att = attention_cases()
    out = {
        "description": "mpmath references for random-feature attention: covariances of one-feature "
                       "estimates sharing their randomness (Gaussian kernel) and the exact / "
                       "delta-method attention error terms of small problems (softmax kernel, one "
                       "feature); generated by generate_attention_references.py",
        "mpmath_version": mpmath.__version__,
        "digits": DIGITS,
        "quadruples": quads,
        "covariances": covs,
        "attention": att,
    }
    with open(OUT, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote %d covariance and %d attention cases to %s" % (len(covs), len(att), OUT))


if __name__ == "__main__":
    main()
