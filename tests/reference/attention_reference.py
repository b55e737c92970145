#!/usr/bin/env python3
"""NumPy reference implementation of random-feature (RF) softmax attention and of its predicted
error, for implementers to compare against (double precision; the mpmath references in
attention_references.json are the ground truth for the formulas; formulas and their derivations:
README-attention-derf.md).

Inputs follow the attention convention: queries and keys are already scaled by d^{-1/4}, so the
softmax kernel is SM(x, y) = exp(x.y) and exact attention is A = diag(SM 1)^{-1} SM.

  mechanism      a dict {"id": ..., parameters}: trig, pos, pos-hyp, trig-phase, oprf {"A"},
                 gerf {"A", "A_imag", "s"}, hybrid-angular {"n", "shared"},
                 hybrid-gaussian {"n", "bandwidth", "shared"}, derf {"a", "T1", "T2"} (sderf and
                 aderf resolve to derf through sderf_parameters / aderf_parameters).
  feature_maps   (phi_q, phi_k) with phi_q(X) phi_k(Y)^T = the M-feature estimate of SM(X, Y).
  rf_attention   one draw of the RF attention: unnormalised estimate, attention matrix, output.
  predict        the exact expected squared error of the unnormalised attention (all pairs) and
                 the delta-method predictions per row (given rows, or all), by the factorised
                 algorithm of the specification: one query-independent Gram matrix per
                 exponential term, O(L^2 (d + d_v) + L^2 |rows| terms) work.
  predict_direct the same per-row quantities by the plain O(L^3) double sum (for checking).

Run as a script for a self-check against attention_references.json.
"""

import json
import math
import os

import numpy as np

import derf_reference as derf

# ---------------------------------------------------------------------------------------------
# Data-driven parameters ---------------------------------------------------------------------------


def oprf_parameters(X, Y):
    """CRT eq. (8): A* from the mean over all pairs of |x + y|^2."""
    d = X.shape[1]
    u = np.sum(X * X) / len(X) + np.sum(Y * Y) / len(Y) + 2 * X.mean(0) @ Y.mean(0)
    return {"id": "oprf", "A": -float(derf.oprf_r_minus_one(d, u)) / 8}


def resolve(mechanism, X, Y):
    """Data-driven parameters (sderf, aderf, oprf without A) from the query and key sets."""
    mid = mechanism["id"]
    if mid == "oprf" and "A" not in mechanism:
        return oprf_parameters(X, Y)
    if mid == "sderf":
        return dict(derf.sderf_parameters(X, Y), id="derf")
    if mid == "aderf":
        return dict(derf.aderf_parameters(X, Y, bool(mechanism.get("dense_a", False))), id="derf")
    return mechanism


# ---------------------------------------------------------------------------------------------
# Random features ------------------------------------------------------------------------------------


def draw_omegas(rng, M, d, coupling="iid"):
    if coupling == "iid":
        return rng.standard_normal((M, d))
    blocks = []
    for _ in range(-(-M // d)):
        g = rng.standard_normal((d, d))
        q, r = np.linalg.qr(g)
        q = q * np.sign(np.diag(r))[None, :]  # Haar
        norms = np.sqrt(np.sum(rng.standard_normal((d, d)) ** 2, 1))
        blocks.append(norms[:, None] * q.T)
    return np.vstack(blocks)[:M]


def feature_blocks(mechanism, M, d, rng, coupling="iid"):
    """(fq, fk): fq(X) is (L, M, k), one block of k numbers per random feature, such that
    sum_c fq(X)[i, m, c] fk(Y)[j, m, c] is the ONE-feature estimate of exp(x_i . y_j) of feature m
    (the M-feature estimate is the mean over m)."""
    mid = mechanism["id"]
    W = draw_omegas(rng, M, d, coupling)
    sq = lambda X: np.sum(X * X, 1)[:, None, None]
    proj = lambda X, Wm: (X @ Wm.T)[:, :, None]
    if mid == "trig":
        f = lambda X: np.exp(sq(X) / 2) * np.concatenate([np.cos(proj(X, W)), np.sin(proj(X, W))], 2)
        return f, f
    if mid == "trig-phase":
        b = rng.uniform(0, 2 * math.pi, M)[None, :, None]
        f = lambda X: np.exp(sq(X) / 2) * math.sqrt(2) * np.cos(proj(X, W) + b)
        return f, f
    if mid == "pos":
        f = lambda X: np.exp(proj(X, W) - sq(X) / 2)
        return f, f
    if mid == "pos-hyp":
        f = lambda X: np.exp(-sq(X) / 2) * np.concatenate([np.exp(proj(X, W)), np.exp(-proj(X, W))], 2) / math.sqrt(2)
        return f, f
    if mid in ("gerf", "oprf"):
        A = complex(mechanism["A"], mechanism.get("A_imag", 0.0) if mid == "gerf" else 0.0)
        s = int(mechanism.get("s", 1)) if mid == "gerf" else 1
        B = np.sqrt(complex(s * (1 - 4 * A)))  # principal roots throughout (CRT Thm 3.1)
        logD = d / 4 * np.log(1 - 4 * A)
        C = -(s + 1) / 2
        w2 = np.sum(W * W, 1)[None, :, None]
        # Re(f1 f2) = Re f1 Re f2 - Im f1 Im f2
        f1 = lambda X: (lambda z: np.concatenate([z.real, z.imag], 2))(
            np.exp(logD + A * w2 + B * proj(X, W) + (C + 0.5) * sq(X)))
        f2 = lambda Y: (lambda z: np.concatenate([z.real, -z.imag], 2))(
            np.exp(logD + A * w2 + s * B * proj(Y, W) + (C + 0.5) * sq(Y)))
        return f1, f2
    if mid == "derf":
        a, T1, T2 = mechanism["a"], mechanism["T1"], mechanism["T2"]
        logD = 0.25 * np.sum(np.log1p(-4 * a))
        quad = ((W * W) @ a)[None, :, None]  # w' A w in the eigenbasis of A (w there is N(0, I))
        b = np.sqrt(1 - 4 * a)

        def f(X, T):
            Xt = X @ T.T
            return np.exp(logD + quad + proj(Xt * b, W) - np.sum(Xt * Xt, 1)[:, None, None] / 2)
        return (lambda X: f(X, T1)), (lambda Y: f(Y, T2))
    if mid in ("hybrid-angular", "hybrid-gaussian"):
        n = int(mechanism["n"])
        tau = rng.standard_normal((M, n, d))
        W2 = W if mechanism["shared"] else rng.standard_normal((M, d))
        bw = float(mechanism.get("bandwidth", 1.0))

        def coeff(X, sign):
            # lambda_m(x, y) = a_m(x) . b_m(y)
            t = np.einsum("lk,mnk->lmn", X, tau)
            if mid == "hybrid-angular":  # l = (1 - sign(t.x) sign(t.y)) / 2
                h = 1 / math.sqrt(2 * n)
                return np.concatenate([np.full(t.shape, h), sign * np.sign(t) * h], axis=2)
            one = np.ones(t.shape[:2] + (1,))  # l = 1 - cos(t.x/b) cos(t.y/b) - sin sin
            h = 1 / math.sqrt(n)
            return np.concatenate([one, sign * np.cos(t / bw) * h, sign * np.sin(t / bw) * h], axis=2)

        def f(X, sign):
            L = len(X)
            c = coeff(X, sign)  # (L, M, k)
            p = np.exp(-sq(X) / 2) * np.concatenate([np.exp(proj(X, W)), np.exp(-proj(X, W))], 2) / math.sqrt(2)
            t = np.exp(sq(X) / 2) * np.concatenate([np.cos(proj(X, W2)), np.sin(proj(X, W2))], 2)
            # Z = lambda P + T - lambda T, per feature m
            lp = np.einsum("lmk,lmj->lmkj", c, p).reshape(L, M, -1)
            lt = np.einsum("lmk,lmj->lmkj", c, t).reshape(L, M, -1)
            return np.concatenate([lp, t, -lt if sign > 0 else lt], axis=2)
        return (lambda X: f(X, 1)), (lambda Y: f(Y, -1))
    raise ValueError("unknown mechanism " + mid)


def feature_maps(mechanism, M, d, rng, coupling="iid"):
    """(phi_q, phi_k): phi_q(X) @ phi_k(Y).T is the M-feature estimate of exp(X Y^T)."""
    fq, fk = feature_blocks(mechanism, M, d, rng, coupling)
    flat = lambda F: F.reshape(F.shape[0], -1) / math.sqrt(M)
    return (lambda X: flat(fq(X))), (lambda Y: flat(fk(Y)))


def exact_attention(X, Y, V):
    logits = X @ Y.T
    m = logits.max(1, keepdims=True)
    E = np.exp(logits - m)
    A = E / E.sum(1, keepdims=True)
    return A, A @ V


def rf_attention(mechanism, X, Y, V, M, rng, coupling="iid"):
    """One draw: (unnormalised estimate SM^, attention matrix A^, output o^)."""
    mech = resolve(mechanism, X, Y)
    fq, fk = feature_maps(mech, M, X.shape[1], rng, coupling)
    Pq, Pk = fq(X), fk(Y)
    S = Pq @ Pk.T
    D = S.sum(1, keepdims=True)
    return S, S / D, (Pq @ (Pk.T @ V)) / D


# ---------------------------------------------------------------------------------------------
# Second moments as sums of exponential Gram terms ------------------------------------------------
#
# For a query x and keys y_j (softmax, one feature), E[SM^(x, y_j) SM^(x, y_k)] =
#   SM_j SM_k Re sum_t w_t exp(kappa_t + a_t . (l_j, n_j) + a'_t . (l_k, n_k) + gamma_t z_j.z_k)
# with l_j = x.y_j (or x~.y~_j), n_j = |y_j|^2 (or |y~_j|^2), z_j = transformed key.


def exponential_terms(mechanism, d):
    """List of terms (weight, kappa(nx), (alpha, beta), (alpha', beta'), gamma, key transform) where
    the row exponent is kappa + alpha l_j + beta n_j + alpha' l_k + beta' n_k + gamma z_j.z_k."""
    mid = mechanism["id"]
    if mid == "pos":
        return [(1.0, lambda nx: nx, (1, 0), (1, 0), 1.0)]
    if mid == "pos-hyp":
        return [(0.5, lambda nx: nx, (1, 0), (1, 0), 1.0), (0.5, lambda nx: -nx, (-1, 0), (-1, 0), -1.0)]
    if mid == "trig":
        return [(0.5, lambda nx: nx, (-1, 0), (-1, 0), 1.0), (0.5, lambda nx: -nx, (1, 0), (1, 0), -1.0)]
    if mid == "trig-phase":
        return [(1.0, lambda nx: nx, (-1, 0), (-1, 0), 1.0), (0.5, lambda nx: -nx, (1, 0), (1, 0), -1.0)]
    if mid in ("gerf", "oprf"):
        A = complex(mechanism["A"], mechanism.get("A_imag", 0.0) if mid == "gerf" else 0.0)
        s = int(mechanism.get("s", 1)) if mid == "gerf" else 1
        R = 1 - 8 * A
        c1 = d * (np.log((1 + R) / 2) - 0.5 * np.log(R))
        t1 = (0.5, lambda nx: c1 + s * nx / R, (1 / R, s * (1 - R) / (4 * R)),
              (1 / R, s * (1 - R) / (4 * R)), s * (1 + R) / (2 * R))
        a = A.real
        m4 = abs(1 - 4 * A)
        c2 = d * np.log(m4) - d / 2 * np.log(1 - 8 * a)
        cx = -s + (s * (1 - 4 * a) + m4) / (1 - 8 * a)
        aj = -1 + ((1 - 4 * A) + s * m4) / (1 - 8 * a)
        ak = -1 + ((1 - 4 * np.conj(A)) + s * m4) / (1 - 8 * a)
        bj = -s / 2 + s * (1 - 4 * A) / (2 * (1 - 8 * a))
        bk = -s / 2 + s * (1 - 4 * np.conj(A)) / (2 * (1 - 8 * a))
        t2 = (0.5, lambda nx: c2 + cx * nx, (aj, bj), (ak, bk), m4 / (1 - 8 * a))
        return [t1, t2]
    raise ValueError("no exponential-term form for " + mid)


def _stable_gram(Z, gamma, rows_first=None):
    """(G~, shift) with exp(gamma z_j.z_k) = exp(shift_j + shift_k) G~_jk and |G~| <= 1."""
    n = np.sum(Z * Z, 1)
    if np.real(gamma) >= 0:
        D2 = np.maximum(n[:, None] + n[None, :] - 2 * Z @ Z.T, 0)
        return np.exp(-gamma * D2 / 2), gamma * n / 2
    S2 = np.maximum(n[:, None] + n[None, :] + 2 * Z @ Z.T, 0)
    return np.exp(gamma * S2 / 2), -gamma * n / 2


def predict(mechanism, X, Y, V, rows=None):
    """Per-row (log D_i, o_i, T_i, F_i, Var D_i) for one feature, by the factorised algorithm, and
    the exact sum of the one-feature variances of the unnormalised attention over all pairs.
    Divide T, F, Var D and the sum by M for M i.i.d. features. Returns a dict."""
    mech = resolve(mechanism, X, Y)
    mid = mech["id"]
    L, d = X.shape
    rows = np.arange(L) if rows is None else np.asarray(rows)
    vbar = V.mean(0)
    Vc = V - vbar  # centring: w_j = v_j - o_i is unchanged, the expanded form cancels less
    if mid == "derf":
        Xt, Yt = X @ mech["T1"].T, Y @ mech["T2"].T
        r = 1 - 8 * mech["a"]
        # one term: kappa = sum l(r) + sum x~^2 / r, l_j = x~ . diag(1/r) y~_j, gamma z.z with
        # z = sqrt((1+r)/(2r)) y~, n_j = sum (1-r)/(4r) y~_j^2
        ell = np.sum(np.log((1 + r) / 2) - 0.5 * np.log(r))
        lq = Xt @ (Yt / r).T  # (L, L)
        nk = (Yt ** 2) @ ((1 - r) / (4 * r))
        kap = ell + (Xt ** 2) @ (1 / r)
        Z = Yt * np.sqrt((1 + r) / (2 * r))
        terms = [(1.0, kap, lq, nk, lq, nk, 1.0, Z)]
    elif mid in ("hybrid-angular", "hybrid-gaussian"):
        return predict_direct(mech, X, Y, V, rows)
    else:
        lq = X @ Y.T
        nk = np.sum(Y * Y, 1)
        nx = np.sum(X * X, 1)
        terms = []
        for w, kappa, (a1, b1), (a2, b2), gamma in exponential_terms(mech, d):
            terms.append((w, kappa(nx), a1 * lq, b1 * nk, a2 * lq, b2 * nk, gamma, Y))
    logits = X @ Y.T
    out = {"rows": rows, "log_D": [], "o": [], "log_T": [], "log_F": [], "log_var_D": []}
    # Exact unnormalised MSE over ALL pairs: sum_ij SM_ij^2 (E[R_ij,ij] - 1).
    diag_log_terms = []
    for w, kap, a1, b1, a2, b2, gamma, Z in terms:
        zz = np.sum(Z * Z, 1)
        e = np.log(w + 0j) + kap[:, None] + a1 + b1[None, :] + a2 + b2[None, :] + gamma * zz[None, :]
        diag_log_terms.append(e)
    second = sum(np.exp(2 * logits + e) for e in diag_log_terms).real  # E SM^_ij^2 (double; tests only)
    out["log_unnormalised_mse"] = float(np.log(np.sum(second - np.exp(2 * logits))))
    grams = [_stable_gram(Z, gamma) for (_, _, _, _, _, _, gamma, Z) in terms]
    VV = Vc @ Vc.T
    for i in rows:
        li = logits[i]
        js = int(np.argmax(li))  # dominant key: handled apart (see below)
        mx = li[js]
        sm = np.exp(li - mx)
        D = sm.sum()
        A = sm / D
        rest = np.arange(len(li)) != js
        eps = np.sum(A[rest])  # 1 - A_j*, accurate when one key dominates
        w_star = A[rest] @ (V[js] - V[rest])  # v_j* - o without cancellation
        o = V[js] - w_star
        oc = o - vbar
        q = np.sum(A[rest] ** 2)
        A2 = A[js] ** 2 + q
        T = F = VD = 0.0
        for (w, kap, a1, b1, a2, b2, gamma, Z), (G, shift) in zip(terms, grams):
            lu = li + a1[i] + b1 + shift
            lv = li + a2[i] + b2 + shift
            base = np.log(w + 0j) + kap[i] - 2 * mx - 2 * math.log(D)  # everything relative to D^2
            u = np.exp(lu + base / 2)
            v = np.exp(lv + base / 2)
            VD += (u @ (G @ v)).real
            # Dominant key j* apart: when A_j* -> 1, v_j* - o and 1 - A_j* are small and the
            # expanded quadratic forms would cancel; the rest is benign.
            u0, v0 = u * rest, v * rest
            Gu, Gv = G @ u0, G @ v0
            Hv = (G * VV) @ v0
            t = (u0 @ Hv - oc @ (Vc.T @ (u0 * Gv)) - oc @ (Vc.T @ (v0 * Gu)) + (oc @ oc) * (u0 @ Gv))
            f = (np.sum(u0 * np.diag(G) * v0) - A @ (u0 * Gv) - A @ (v0 * Gu) + A2 * (u0 @ Gv))
            g_row = G[js]  # row j* of the Gram (on the fly in a blocked implementation)
            s_row = (u[js] * g_row * v + u * g_row * v[js]) * rest  # S_j*k + S_kj*, k != j*
            W_rest = V[rest] - o
            t += w_star @ (s_row[rest] @ W_rest) + u[js] * G[js, js] * v[js] * (w_star @ w_star)
            f += s_row[rest] @ (-A[rest] - A[js] * eps + q) + u[js] * G[js, js] * v[js] * (eps ** 2 + q)
            T += t.real
            F += f.real
        out["log_D"].append(mx + math.log(D))
        out["o"].append(o)
        out["log_T"].append(math.log(T) + 2 * out["log_D"][-1])
        out["log_F"].append(math.log(F) + 2 * out["log_D"][-1])
        out["log_var_D"].append(math.log(VD - 1) + 2 * out["log_D"][-1])
    return out


def predict_direct(mechanism, X, Y, V, rows=None):
    """Same per-row quantities by the plain double sum over key pairs (O(L^2) per row), from the
    four-point covariances of covariance_gaussian()."""
    mech = resolve(mechanism, X, Y)
    L = len(X)
    rows = np.arange(L) if rows is None else np.asarray(rows)
    out = {"rows": rows, "log_D": [], "o": [], "log_T": [], "log_F": [], "log_var_D": []}
    total = 0.0
    for i in range(L):
        x = X[i]
        sm = np.exp(Y @ x)
        scale = np.exp((x @ x + np.sum(Y * Y, 1)) / 2)
        C = np.array([[scale[j] * scale[k] * covariance_gaussian(mech, x, Y[j], x, Y[k])
                       for k in range(L)] for j in range(L)])
        total += np.trace(C)
        if i not in rows:
            continue
        D = sm.sum()
        A = sm / D
        js = int(np.argmax(sm))
        rest = np.arange(L) != js
        w_star = A[rest] @ (V[js] - V[rest])  # v_j* - o without cancellation
        Wv = V - V[js] + w_star  # v_j - o
        R = np.eye(L) - A[None, :]  # rows e_j - A
        R[js, js] = np.sum(A[rest])  # 1 - A_j*
        out["log_D"].append(math.log(D))
        out["o"].append(V[js] - w_star)
        out["log_T"].append(math.log(np.sum(C * (Wv @ Wv.T))))
        out["log_F"].append(math.log(np.sum(C * (R @ R.T))))
        out["log_var_D"].append(math.log(np.sum(C)))
    out["log_unnormalised_mse"] = math.log(total)
    return out


def _angle(a, b):
    ua, ub = a / np.linalg.norm(a), b / np.linalg.norm(b)
    return 2 * math.atan2(np.linalg.norm(ua - ub), np.linalg.norm(ua + ub))


def covariance_gaussian(mech, x1, y1, x2, y2):
    """Cov(Z(x1, y1), Z(x2, y2)), Gaussian kernel, one feature (double precision, stable forms)."""
    mid = mech["id"]
    K1 = math.exp(-np.sum((x1 - y1) ** 2) / 2)
    K2 = math.exp(-np.sum((x2 - y2) ** 2) / 2)
    s1, s2, d1, d2 = x1 + y1, x2 + y2, x1 - y1, x2 - y2
    coshm1 = lambda t: 2 * math.sinh(t / 2) ** 2
    if mid == "trig":
        return K1 * K2 * coshm1(d1 @ d2)
    if mid == "trig-phase":
        return K1 * K2 * coshm1(d1 @ d2) + 0.5 * math.exp(-np.sum((s1 - s2) ** 2) / 2)
    if mid == "pos":
        return K1 * K2 * math.expm1(s1 @ s2)
    if mid == "pos-hyp":
        return K1 * K2 * coshm1(s1 @ s2)
    if mid in ("gerf", "oprf"):
        d = len(x1)
        A = complex(mech["A"], mech.get("A_imag", 0.0) if mid == "gerf" else 0.0)
        s = int(mech.get("s", 1)) if mid == "gerf" else 1
        R = 1 - 8 * A
        p1, p2 = x1 + s * y1, x2 + s * y2
        P1, P2, P12 = p1 @ p1, p2 @ p2, p1 @ p2
        phi1 = d * (np.log((1 + R) / 2) - 0.5 * np.log(R)) + s * (
            (1 - R) / (4 * R) * (P1 + P2) + (1 + R) / (2 * R) * P12)
        a = A.real
        m4 = abs(1 - 4 * A)
        phi2 = (d * math.log(m4) - d / 2 * math.log(1 - 8 * a) - s * (P1 + P2) / 2 +
                (s * (1 - 4 * A) * P1 + s * (1 - 4 * np.conj(A)) * P2 + 2 * m4 * P12) / (2 * (1 - 8 * a)))
        part = lambda z: np.expm1(z.real) * math.cos(z.imag) - 2 * math.sin(z.imag / 2) ** 2
        return K1 * K2 * (part(complex(phi1)) + part(complex(phi2))) / 2
    if mid == "derf":
        return derf.covariance(mech, x1, y1, x2, y2)
    if mid in ("hybrid-angular", "hybrid-gaussian"):
        n = int(mech["n"])
        if mid == "hybrid-angular":
            t1, t2 = _angle(x1, y1), _angle(x2, y2)
            e1, e2 = t1 / math.pi, t2 / math.pi
            if np.array_equal(x1, x2):
                c = (t1 + t2 - _angle(y1, y2)) / (2 * math.pi) - e1 * e2
            elif np.array_equal(y1, y2):
                c = (t1 + t2 - _angle(x1, x2)) / (2 * math.pi) - e1 * e2
            else:
                raise ValueError("angular hybrid: shared query or key only")
        else:
            b = float(mech["bandwidth"])
            k1 = math.exp(-(d1 @ d1) / (2 * b * b))
            k2 = math.exp(-(d2 @ d2) / (2 * b * b))
            e1, e2 = 1 - k1, 1 - k2
            c = k1 * k2 * coshm1((d1 @ d2) / (b * b))
        c /= n  # Cov(lambda1, lambda2)
        ch_s, ch_d = coshm1(s1 @ s2), coshm1(d1 @ d2)
        if mech["shared"]:
            x12, x21 = math.cos(s1 @ d2) - 1, math.cos(s2 @ d1) - 1
        else:
            x12 = x21 = 0.0
        ratio = (e1 * e2 * ch_s + (1 - e1) * (1 - e2) * ch_d + e1 * (1 - e2) * x12 +
                 (1 - e1) * e2 * x21 + c * (ch_s + ch_d - x12 - x21))
        return K1 * K2 * ratio
    raise ValueError(mid)


# ---------------------------------------------------------------------------------------------
# Self-check ------------------------------------------------------------------------------------


def _self_check():
    here = os.path.dirname(os.path.abspath(__file__))
    refs = json.load(open(os.path.join(here, "attention_references.json")))
    worst = 0.0
    for case in refs["attention"]:
        X, Y, V = (np.array(case[k], dtype=float) for k in ("x", "y", "values"))
        mech = dict(case["params"], id=case["mechanism"])
        if mech["id"] == "oprf" and "expected_params" in case:
            mech["A"] = float(case["expected_params"]["A"])
        got = predict(mech, X, Y, V)
        for i, row in enumerate(case["rows"]):
            for key in ("log_D", "log_T", "log_F", "log_var_D"):
                err = abs(got[key][i] - float(row[key])) / max(1.0, abs(float(row[key])))
                worst = max(worst, err)
        worst = max(worst, abs(got["log_unnormalised_mse"] - float(case["log_unnormalised_mse"])))
    print("attention_reference.predict vs mpmath: max |error| in the logs %.2e" % worst)


if __name__ == "__main__":
    _self_check()
