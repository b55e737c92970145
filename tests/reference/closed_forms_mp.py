"""Closed forms shared by the attention, random-phase and DERF reference generators (mpmath).

Every function evaluates the plain Gaussian-integral result at mpmath's current working precision
(the generators raise the precision until two evaluations agree), starting from exact binary
doubles (mpf(float) is exact). Nothing here uses the cancellation-free rearrangements that the C++
code is meant to use, so the two stay independent. Derivations: README-attention-derf.md.

Conventions. Gaussian kernel K(x, y) = exp(-|x - y|^2 / 2); softmax SM(x, y) = exp(x.y) =
e^{|x|^2/2} K(x, y) e^{|y|^2/2}. Z(x, y) is the product f1(w, x) f2(w, y) of ONE random feature
(Gaussian kernel, E Z = K). "Four-point second moment" E[Z(x1, y1) Z(x2, y2)] is taken with every
random quantity of the feature shared (w, and tau's / phase b where the mechanism has them):
estimates in the same attention row (x1 = x2 = query) or the same Gram row share them.

Mechanisms (exactly the products RFScope samples):
  trig        Z = cos(w.(x - y))                                    (one frequency, cos/sin pair)
  pos         Z = exp(w.(x + y) - |x|^2 - |y|^2)                    (FAVOR+)
  pos-hyp     Z = exp(-|x|^2 - |y|^2) cosh(w.(x + y))               (antithetic pair)
  gerf        Z = Re[(1-4A)^{d/2} exp(2A|w|^2 + B w.(x + s y) - (s+1)/2 (|x|^2 + |y|^2))],
              B = sqrt(s(1-4A)), principal roots, A complex, s = +-1  (CRT Thm 3.1)
  oprf        gerf with s = +1 and real A
  hybrid-*    Z = l P + (1 - l) T, P = pos-hyp with w, T = trig with w (shared) or an independent
              w' (not shared); l = mean of n per-feature coefficient samples l(tau_k):
              angular  l(tau) = 1[sign tau.x != sign tau.y]           E l = theta/pi
              gaussian l(tau) = 1 - cos(tau.(x - y)/b)                 E l = 1 - e^{-|x-y|^2/(2b^2)}
  trig-phase  Z = 2 cos(w.x + b) cos(w.y + b), b ~ U[0, 2 pi)
  derf        Z = f1 f2, f1 = D1 exp(w'Aw + w'B1 x + x'C1 x), f2 = D2 exp(w'Aw + w'B2 y + y'C2 y),
              B1 = (I-4A)^{1/2} Q, B2 = (I-4A)^{1/2} Q^{-T}, C1 = -(I + Q'Q)/2,
              C2 = -(I + (Q'Q)^{-1})/2, D1 D2 = det(I-4A)^{1/2}
"""

import mpmath
from mpmath import mpf, mpc


# ---------------------------------------------------------------------------------------------
# Vectors ---------------------------------------------------------------------------------------

def vec(v):
    return [mpf(t) for t in v]


def dot(a, b):
    return mpmath.fsum(s * t for s, t in zip(a, b))


def add(a, b, sb=1):
    return [s + sb * t for s, t in zip(a, b)]


def norm2(a):
    return dot(a, a)


def kernel(x, y):
    return mpmath.exp(-norm2(add(x, y, -1)) / 2)


def angle(a, b):
    """Angle between a and b, accurate for nearly (anti)parallel vectors: 2 atan2(|a^ - b^|, |a^ + b^|)."""
    na, nb = mpmath.sqrt(norm2(a)), mpmath.sqrt(norm2(b))
    ua = [t / na for t in a]
    ub = [t / nb for t in b]
    return 2 * mpmath.atan2(mpmath.sqrt(norm2(add(ua, ub, -1))), mpmath.sqrt(norm2(add(ua, ub))))


# ---------------------------------------------------------------------------------------------
# Four-point second moments E[Z(x1, y1) Z(x2, y2)], Gaussian kernel --------------------------------

def m2_trig(x1, y1, x2, y2, params=None):
    d1, d2 = add(x1, y1, -1), add(x2, y2, -1)
    return (mpmath.exp(-norm2(add(d1, d2, -1)) / 2) + mpmath.exp(-norm2(add(d1, d2)) / 2)) / 2


def m2_pos(x1, y1, x2, y2, params=None):
    s = add(add(x1, y1), add(x2, y2))
    return mpmath.exp(norm2(s) / 2 - norm2(x1) - norm2(y1) - norm2(x2) - norm2(y2))


def m2_pos_hyp(x1, y1, x2, y2, params=None):
    s1, s2 = add(x1, y1), add(x2, y2)
    e = mpmath.exp(-norm2(x1) - norm2(y1) - norm2(x2) - norm2(y2))
    return e * (mpmath.exp(norm2(add(s1, s2)) / 2) + mpmath.exp(norm2(add(s1, s2, -1)) / 2)) / 2


def m2_trig_phase(x1, y1, x2, y2, params=None):
    s1, s2 = add(x1, y1), add(x2, y2)
    return m2_trig(x1, y1, x2, y2) + mpmath.exp(-norm2(add(s1, s2, -1)) / 2) / 2


def gerf_moments(x1, y1, x2, y2, A, s):
    """(E[W1 W2], E[W1 conj(W2)]) for the complex GERF products W = f1 f2 (Re W is the estimate)."""
    A = mpc(A)
    d = len(x1)
    B = mpmath.sqrt(s * (1 - 4 * A))
    C = -mpf(s + 1) / 2
    n = norm2(x1) + norm2(y1) + norm2(x2) + norm2(y2)
    p1, p2 = add(x1, y1, s), add(x2, y2, s)
    # D^4 = exp(d Log(1-4A)) with D = (principal 4th root of 1-4A)^d.
    log_d4 = d * mpmath.log(1 - 4 * A)
    # E exp(a|w|^2 + b.w) = (1-2a)^{-d/2} exp(b.b / (2(1-2a))), principal branch, Re(1-2a) > 0.
    a12 = 4 * A
    b12 = [B * (u + v) for u, v in zip(p1, p2)]
    m12 = mpmath.exp(log_d4 - d * mpmath.log(1 - 2 * a12) / 2 + C * n
                     + mpmath.fsum(t * t for t in b12) / (2 * (1 - 2 * a12)))
    a1c = 2 * (A + mpmath.conj(A))
    b1c = [B * u + mpmath.conj(B) * v for u, v in zip(p1, p2)]
    log_d2d2c = d * mpmath.log(abs(1 - 4 * A))
    m1c = mpmath.exp(log_d2d2c - d * mpmath.log(1 - 2 * a1c) / 2 + C * n
                     + mpmath.fsum(t * t for t in b1c) / (2 * (1 - 2 * a1c)))
    return m12, m1c


def m2_gerf(x1, y1, x2, y2, params):
    A = mpc(mpf(params["A"]), mpf(params.get("A_imag", 0.0)))
    s = int(params.get("s", 1))
    m12, m1c = gerf_moments(x1, y1, x2, y2, A, s)
    # Re(W1) Re(W2) = Re(W1 W2)/2 + Re(W1 conj W2)/2.
    return (m12.real + m1c.real) / 2


def m2_oprf(x1, y1, x2, y2, params):
    return m2_gerf(x1, y1, x2, y2, {"A": params["A"], "A_imag": 0.0, "s": 1})


def hybrid_parts(x1, y1, x2, y2, shared):
    """E[P1 P2], E[P1 T2], E[T1 P2], E[T1 T2] (P = pos-hyp, T = trig)."""
    s1, s2 = add(x1, y1), add(x2, y2)
    d1, d2 = add(x1, y1, -1), add(x2, y2, -1)
    n1, n2 = norm2(x1) + norm2(y1), norm2(x2) + norm2(y2)
    pp = m2_pos_hyp(x1, y1, x2, y2)
    tt = m2_trig(x1, y1, x2, y2)
    if shared:
        # E cosh(w.a) cos(w.b) = exp((|a|^2 - |b|^2)/2) cos(a.b).
        pt = mpmath.exp(-n1 + (norm2(s1) - norm2(d2)) / 2) * mpmath.cos(dot(s1, d2))
        tp = mpmath.exp(-n2 + (norm2(s2) - norm2(d1)) / 2) * mpmath.cos(dot(s2, d1))
    else:
        pt = kernel(x1, y1) * kernel(x2, y2)
        tp = pt
    return pp, pt, tp, tt


def coefficient_moments(x1, y1, x2, y2, params):
    """(E l1, E l2, E[l1 l2]) of ONE coefficient sample l(tau) of the hybrid."""
    if params["coefficient"] == "angular":
        t1, t2 = angle(x1, y1), angle(x2, y2)
        e1, e2 = t1 / mpmath.pi, t2 / mpmath.pi
        # Trivariate orthant probability: P(l1 = l2 = 1) = (theta_ab + theta_ac - theta_bc)/(2 pi)
        # for the shared vector a (same query: a = x1 = x2; same key: a = y1 = y2).
        if all(u == v for u, v in zip(x1, x2)):
            e12 = (t1 + t2 - angle(y1, y2)) / (2 * mpmath.pi)
        elif all(u == v for u, v in zip(y1, y2)):
            e12 = (t1 + t2 - angle(x1, x2)) / (2 * mpmath.pi)
        else:
            raise ValueError("angular hybrid: closed form only for a shared query or a shared key")
        return e1, e2, e12
    b = mpf(params["bandwidth"])
    d1, d2 = add(x1, y1, -1), add(x2, y2, -1)
    k1 = mpmath.exp(-norm2(d1) / (2 * b * b))
    k2 = mpmath.exp(-norm2(d2) / (2 * b * b))
    cc = (mpmath.exp(-norm2(add(d1, d2, -1)) / (2 * b * b)) +
          mpmath.exp(-norm2(add(d1, d2)) / (2 * b * b))) / 2  # E cos cos
    return 1 - k1, 1 - k2, 1 - k1 - k2 + cc


def m2_hybrid(x1, y1, x2, y2, params):
    n = int(params["n"])
    e1, e2, e12 = coefficient_moments(x1, y1, x2, y2, params)
    l12 = e12 / n + (1 - mpf(1) / n) * e1 * e2  # E[lambda1 lambda2], lambda = mean of n samples
    pp, pt, tp, tt = hybrid_parts(x1, y1, x2, y2, bool(params["shared"]))
    return l12 * pp + (e1 - l12) * pt + (e2 - l12) * tp + (1 - e1 - e2 + l12) * tt


def m2_hybrid_angular(x1, y1, x2, y2, params):
    return m2_hybrid(x1, y1, x2, y2, dict(params, coefficient="angular"))


def m2_hybrid_gaussian(x1, y1, x2, y2, params):
    return m2_hybrid(x1, y1, x2, y2, dict(params, coefficient="gaussian"))


# ---------------------------------------------------------------------------------------------
# DERF ------------------------------------------------------------------------------------------

def mat(rows):
    return mpmath.matrix([[mpf(t) for t in r] for r in rows])


def sym_function(S, fn):
    """fn applied to the symmetric matrix S through its eigendecomposition."""
    E, U = mpmath.eigsy(S)
    n = S.rows
    F = mpmath.matrix(n, n)
    for i in range(n):
        for j in range(n):
            F[i, j] = mpmath.fsum(U[i, k] * fn(E[k]) * U[j, k] for k in range(n))
    return F


def derf_maps(A, Q):
    """(B1, B2, C1, C2, logD1D2) of the DERF with symmetric A (I - 8A > 0) and invertible Q."""
    d = A.rows
    I = mpmath.eye(d)
    root = sym_function(I - 4 * A, mpmath.sqrt)
    Qi = Q ** -1
    B1 = root * Q
    B2 = root * Qi.T
    C1 = -(I + Q.T * Q) / 2
    C2 = -(I + Qi * Qi.T) / 2
    log_dd = mpmath.log(mpmath.det(I - 4 * A)) / 2
    return B1, B2, C1, C2, log_dd


def quad_form(v, M, w=None):
    w = v if w is None else w
    return (v.T * M * w)[0, 0]


def derf_mean(x, y, A, Q):
    """E f1(w, x) f2(w, y) straight from the Gaussian integral (equals K(x, y) when unbiased)."""
    d = A.rows
    B1, B2, C1, C2, log_dd = derf_maps(A, Q)
    X, Y = mpmath.matrix(vec(x)), mpmath.matrix(vec(y))
    z = B1 * X + B2 * Y
    Ni = (mpmath.eye(d) - 4 * A) ** -1
    return mpmath.exp(log_dd + quad_form(X, C1) + quad_form(Y, C2) -
                      mpmath.log(mpmath.det(mpmath.eye(d) - 4 * A)) / 2 + quad_form(z, Ni) / 2)


def derf_context(A, Q):
    """Everything of m2_derf that depends only on the parameters (computed once per precision)."""
    d = A.rows
    B1, B2, C1, C2, log_dd = derf_maps(A, Q)
    I8 = mpmath.eye(d) - 8 * A
    return {"B1": B1, "B2": B2, "C1": C1, "C2": C2, "log_dd": log_dd, "I8inv": I8 ** -1,
            "log_det_I8": mpmath.log(mpmath.det(I8))}


def m2_derf(x1, y1, x2, y2, params):
    """E[Z(x1, y1) Z(x2, y2)] = D1^2 D2^2 exp(sum x'C1x + y'C2y) det(I-8A)^{-1/2} exp(z'(I-8A)^{-1}z/2),
    z = B1(x1 + x2) + B2(y1 + y2)."""
    c = params.get("context") or derf_context(params["A_matrix"], params["Q_matrix"])
    X1, Y1 = mpmath.matrix(vec(x1)), mpmath.matrix(vec(y1))
    X2, Y2 = mpmath.matrix(vec(x2)), mpmath.matrix(vec(y2))
    z = c["B1"] * (X1 + X2) + c["B2"] * (Y1 + Y2)
    return mpmath.exp(2 * c["log_dd"] + quad_form(X1, c["C1"]) + quad_form(X2, c["C1"]) +
                      quad_form(Y1, c["C2"]) + quad_form(Y2, c["C2"]) - c["log_det_I8"] / 2 +
                      quad_form(z, c["I8inv"]) / 2)


# ---------------------------------------------------------------------------------------------
# Data-driven parameters ---------------------------------------------------------------------------

def oprf_r(d, u):
    """Positive root r of d r^2 - (d + 2u) r - 2u = 0 (CRT Thm 3.3 with r = 1/rho*)."""
    d, u = mpf(d), mpf(u)
    return ((2 * u + d) + mpmath.sqrt((2 * u + d) ** 2 + 8 * d * u)) / (2 * d)


def set_moments(xs, ys):
    """Second-moment matrices M1 = mean x x', M2 = mean y y' and means m1, m2 (exact in mpmath)."""
    d = len(xs[0])
    M1, M2 = mpmath.matrix(d, d), mpmath.matrix(d, d)
    m1, m2 = mpmath.matrix(d, 1), mpmath.matrix(d, 1)
    for x in xs:
        X = mpmath.matrix(vec(x))
        M1 += X * X.T
        m1 += X
    for y in ys:
        Y = mpmath.matrix(vec(y))
        M2 += Y * Y.T
        m2 += Y
    return M1 / len(xs), M2 / len(ys), m1 / len(xs), m2 / len(ys)


def mean_sum_norm_squared(xs, ys):
    """CRT eq. (8): mean over all pairs of |x + y|^2."""
    M1, M2, m1, m2 = set_moments(xs, ys)
    d = M1.rows
    return mpmath.fsum(M1[i, i] + M2[i, i] for i in range(d)) + 2 * (m1.T * m2)[0, 0]


def data_driven_oprf_a(xs, ys):
    d = len(xs[0])
    return (1 - oprf_r(d, mean_sum_norm_squared(xs, ys))) / 8


def sderf_parameters(xs, ys):
    """Symmetric DERF (B1 = B2): Q = I, A = U diag((1 - r_l)/8) U', U diag(lam) U' =
    Sigma_p = M1 + M2 + m1 m2' + m2 m1' (mean (x+y)(x+y)' over all pairs), r_l = oprf_r(1, lam_l)."""
    M1, M2, m1, m2 = set_moments(xs, ys)
    P = M1 + M2 + m1 * m2.T + m2 * m1.T
    lam, U = mpmath.eigsy(P)
    d = P.rows
    r = [oprf_r(1, max(l, mpf(0))) for l in lam]
    A = mpmath.matrix(d, d)
    for i in range(d):
        for j in range(d):
            A[i, j] = mpmath.fsum(U[i, k] * (1 - r[k]) / 8 * U[j, k] for k in range(d))
    objective = mpmath.fsum(derf_log_excess_term(rk, lk) for rk, lk in zip(r, lam))
    return {"A_matrix": A, "Q_matrix": mpmath.eye(d), "r": r, "lambda": list(lam),
            "objective": objective}


def derf_log_excess_term(r, lam):
    """One eigen-direction of the averaged log second-moment ratio: log((1+r)/2) - log(r)/2 + lam/r."""
    return mpmath.log((1 + r) / 2) - mpmath.log(r) / 2 + lam / r


def geometric_mean_q(M1, M2):
    """Q with Q M1 Q' = Q^{-T} M2 Q^{-1} = diag(sigma), sigma^2 = eig(M1 M2): Q'Q is the matrix
    geometric mean M1^{-1} # M2, the minimiser of tr(S M1) + tr(S^{-1} M2)."""
    l1, Q1 = mpmath.eigsy(M1)
    d = M1.rows
    half = mpmath.diag([mpmath.sqrt(t) for t in l1])
    H = half * Q1.T * M2 * Q1 * half
    s2, V = mpmath.eigsy((H + H.T) / 2)
    sigma = [mpmath.sqrt(t) for t in s2]
    Q = mpmath.diag([mpmath.sqrt(t) for t in sigma]) * V.T * \
        mpmath.diag([1 / mpmath.sqrt(t) for t in l1]) * Q1.T
    return Q, sigma


ADERF_RIDGE = mpf("1e-6")


def aderf_parameters(xs, ys, dense_a=False):
    """Asymmetric DERF: Q from the geometric mean of M1^{-1} and M2 (each plus the ridge
    ADERF_RIDGE (tr M1 + tr M2)/(2d) I); then either a scalar A = aI
    (a from oprf_r(d, tr W)) or a dense A from the eigendecomposition of
    W = Q M1 Q' + Q^{-T} M2 Q^{-1} + Q m1 m2' Q^{-1} + Q^{-T} m2 m1' Q' (mean p p', p = Qx + Q^{-T} y)."""
    M1, M2, m1, m2 = set_moments(xs, ys)
    d = M1.rows
    # Ridge (always applied, so that the map is continuous in the data): L < d queries or keys
    # make M1 or M2 singular, where the geometric mean does not exist.
    ridge = ADERF_RIDGE * mpmath.fsum(M1[i, i] + M2[i, i] for i in range(d)) / (2 * d)
    Q, sigma = geometric_mean_q(M1 + ridge * mpmath.eye(d), M2 + ridge * mpmath.eye(d))
    Qi = Q ** -1
    W = Q * M1 * Q.T + Qi.T * M2 * Qi + Q * m1 * m2.T * Qi + Qi.T * m2 * m1.T * Q.T
    W = (W + W.T) / 2
    if not dense_a:
        u = mpmath.fsum(W[i, i] for i in range(d))
        r = oprf_r(d, u)
        A = mpmath.eye(d) * (1 - r) / 8
        objective = d * (mpmath.log((1 + r) / 2) - mpmath.log(r) / 2) + u / r
        return {"A_matrix": A, "Q_matrix": Q, "r": [r] * d, "trace_W": u, "sigma": sigma,
                "objective": objective}
    lam, U = mpmath.eigsy(W)
    r = [oprf_r(1, max(l, mpf(0))) for l in lam]
    A = mpmath.matrix(d, d)
    for i in range(d):
        for j in range(d):
            A[i, j] = mpmath.fsum(U[i, k] * (1 - r[k]) / 8 * U[j, k] for k in range(d))
    objective = mpmath.fsum(derf_log_excess_term(rk, lk) for rk, lk in zip(r, lam))
    return {"A_matrix": A, "Q_matrix": Q, "r": r, "lambda": list(lam), "sigma": sigma,
            "objective": objective}


def derf_objective(xs, ys, A, Q):
    """Mean over all pairs (x, y) of log(E Z^2 / K^2), straight from the per-pair formula."""
    vals = []
    for x in xs:
        for y in ys:
            m2 = m2_derf(x, y, x, y, {"A_matrix": A, "Q_matrix": Q})
            vals.append(mpmath.log(m2) + norm2(add(vec(x), vec(y), -1)))
    return mpmath.fsum(vals) / len(vals)


SECOND_MOMENTS = {
    "trig": m2_trig,
    "pos": m2_pos,
    "pos-hyp": m2_pos_hyp,
    "gerf": m2_gerf,
    "oprf": m2_oprf,
    "hybrid-angular": m2_hybrid_angular,
    "hybrid-gaussian": m2_hybrid_gaussian,
    "trig-phase": m2_trig_phase,
    "derf": m2_derf,
}


def covariance(mechanism, x1, y1, x2, y2, params):
    """Cov(Z(x1, y1), Z(x2, y2)), Gaussian kernel, one feature, shared randomness."""
    X1, Y1, X2, Y2 = vec(x1), vec(y1), vec(x2), vec(y2)
    return SECOND_MOMENTS[mechanism](X1, Y1, X2, Y2, params) - kernel(X1, Y1) * kernel(X2, Y2)
