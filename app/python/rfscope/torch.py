"""RFScope's random features as PyTorch modules: feature maps and linear (Performer) attention.

``RandomFeatureMap`` computes, differentiably and on the input's device, the very features of
``rfscope.feature_map`` of the same seed: the frequencies are drawn by RFScope's samplers (i.i.d.,
orthogonal, simplex, quasi-Monte Carlo couplings) and held as buffers, the closed form's constants
come from the C++ map's recipe. ``LinearAttention`` builds softmax attention on it, bidirectional
or causal, in O(L·M) instead of O(L²)::

    import torch
    from rfscope.torch import LinearAttention, RandomFeatureMap

    fmap = RandomFeatureMap("oprf", "orf", num_features=256, dim=64, seed=1)
    attention = LinearAttention(fmap, causal=True)
    q, k, v = torch.randn(3, 2, 8, 1024, 64).unbind(0)     # (B, H, L, d) each
    attention.fit(q, k)          # OPRF's A* from the statistics of the queries and keys
    out = attention(q, k, v)     # estimates softmax(q kᵀ/√d) v: shape (2, 8, 1024, 64)
    attention.redraw()           # fresh frequencies: trial 1 of seed 1, reproducibly

Supported mechanisms (those whose features have a closed form): trig, trig-phase, pos, pos-hyp,
oprf, gerf, sderf, aderf, saderf. The discrete (pois, geom, …) and hybrid ones are NumPy-only
(``rfscope.feature_map``), and so is maclaurin: each of its features multiplies a random number of
Rademacher projections (its degree), which no closed form of the recipe, one projection ωᵀx per
feature, expresses.

Precision. float64 and float32 inputs are computed in their own dtype (float64 reproduces
``FeatureMap.transform`` to about 1e-15, relative). float16 and bfloat16 inputs are computed in
float32 — the exponents ωᵀx and |x|² summed over d entries at 8 or 11 bits of mantissa would be
off by percents in the features — and the features are returned in the input's dtype. Exponential
features overflow a half-precision dtype (float16 above e^11); ``scaled_features`` returns them
divided by a stabilising exp(c), which ``LinearAttention`` uses.

Importing this module needs PyTorch (Debian: python3-torch); ``import rfscope`` does not.
"""

from __future__ import annotations

import cmath
import json as _json
import math
from typing import Any, Dict, Optional, Tuple

import numpy as _np

try:
    import torch
    from torch import nn
except ImportError as _error:  # torch is optional for the rest of rfscope
    raise ImportError("rfscope.torch needs PyTorch: install the Debian package python3-torch "
                      "(apt install python3-torch) or `pip install torch`") from _error

from . import feature_map as _feature_map
from . import mechanisms as _mechanisms

__all__ = ["MECHANISMS", "LinearAttention", "RandomFeatureMap", "exact_attention"]

# The mechanisms whose C++ feature map describes itself by a closed form (feature_map_recipe.h).
MECHANISMS: Tuple[str, ...] = ("trig", "trig-phase", "pos", "pos-hyp", "oprf", "gerf", "sderf",
                               "aderf", "saderf")

# Rows of the queries and of the keys whose statistics fit() hands to the core: the core averages
# at most 2000 rows of its data (as rfscope.sklearn does), 1000 from each side.
_STATISTICS_ROWS_PER_SIDE = 1000

_SIDES = ("queries", "keys")


def _compute_dtype(dtype: torch.dtype) -> torch.dtype:
    """The dtype the features are computed in: float32 for the half-precision types."""
    if dtype in (torch.float64, torch.float32):
        return dtype
    if dtype in (torch.float16, torch.bfloat16):
        return torch.float32
    raise TypeError(f"expected a floating-point tensor (float64, float32, float16, bfloat16), "
                    f"got {dtype}")


def _principal_constants(a: complex, s: int, n: int) -> Tuple[complex, complex]:
    """(B, log D) of the generalised exponential features, as exponential_features.cpp evaluates
    them: B = √(s(1 - 4A)), log D = (n/4) log(1 - 4A), principal branches. The complex arithmetic
    is spelt out by components so that signed zeros (the side of √'s branch cut) are C++'s."""
    one_minus_4a = complex(1.0 - 4.0 * a.real, -(4.0 * a.imag))
    b = cmath.sqrt(complex(s * one_minus_4a.real, s * one_minus_4a.imag))
    log_d = cmath.log(one_minus_4a)
    quarter_n = 0.25 * n
    return b, complex(quarter_n * log_d.real, quarter_n * log_d.imag)


class RandomFeatureMap(nn.Module):
    """One draw of an RFScope mechanism's random features, as a differentiable ``nn.Module``.

    ``forward(x, side)`` maps x of shape (..., dim) to features of shape (..., width) such that
    ``forward(x) @ forward(y, "keys").T`` is the mechanism's unbiased estimate of the kernel
    K(x, y) (the 1/M included): exp(-|x - y|²/2) for kernel="gaussian", exp(xᵀy) for "softmax".
    The features equal ``rfscope.feature_map(mechanism, coupling, num_features, dim, seed,
    trial=trial, kernel=kernel, **params)``'s ``transform`` (queries) and ``transform_keys``
    (keys).

    Parameters
    ----------
    mechanism : one of ``MECHANISMS`` ("trig", "trig-phase", "pos", "pos-hyp", "oprf", "gerf",
        "sderf", "aderf", "saderf").
    coupling : how the frequencies are drawn, an id of ``rfscope.couplings()`` ("iid", "orf",
        "simrf", "qmc-sobol", "qmc-halton", …).
    num_features : the number of frequencies M; the width is M times 1 (pos, oprf, real-A GERF
        with s = +1, SDERF, ADERF, SADERF, trig-phase) or 2 (trig's cos/sin, pos-hyp's ±ω, complex GERF).
    dim : the input dimension d.
    kernel : "softmax" (default) or "gaussian".
    seed, trial : the draw is Philox stream `trial` of `seed`; ``redraw()`` moves to the next.
    params : the mechanism's parameters (e.g. A=-0.1 for oprf), overriding the data-driven choice.
        OPRF's and GERF's automatic parameters are chosen at the origin until ``fit()`` chooses
        them from data (at the origin OPRF is PosRF, A = 0).

    The frequencies (``omega``, M × n, n ≥ d: structured couplings pad inputs with zeros) and the
    closed form's per-frequency constants are float64 buffers: they follow ``.to(device)`` and go
    into ``state_dict`` and pickles, and stay float64 under ``.half()``/``.to(dtype)`` (they are
    cast to the compute dtype at each call, so a half-precision model still uses the exact draw).
    """

    def __init__(self, mechanism: str = "pos", coupling: str = "orf", num_features: int = 256,
                 dim: int = 64, *, kernel: str = "softmax", seed: int = 0, trial: int = 0,
                 **params: Any):
        super().__init__()
        if mechanism not in MECHANISMS:
            known = {m["id"] for m in _mechanisms()}
            if mechanism == "maclaurin":
                what = ("has no closed-form feature map: each feature multiplies a random number "
                        "of Rademacher projections (its degree), not one projection of ω as the "
                        "PyTorch maps compute (NumPy-only: rfscope.feature_map)")
            elif mechanism in known:
                what = ("has no closed-form feature map (discrete and hybrid mechanisms are "
                        "NumPy-only: rfscope.feature_map)")
            else:
                what = "is not a mechanism"
            raise ValueError(f"mechanism: '{mechanism}' {what}; rfscope.torch supports "
                             f"{', '.join(MECHANISMS)}")
        self.mechanism = mechanism
        self.coupling = coupling
        self.num_features = int(num_features)
        self.dim = int(dim)
        self.kernel = kernel
        self.seed = int(seed)
        self.trial = int(trial)
        self.params: Dict[str, Any] = dict(params)
        self._statistics: Optional[_np.ndarray] = None  # the rows fit() chose parameters from
        self._draw()

    # ---- drawing ---------------------------------------------------------------------------

    def _draw(self) -> None:
        fmap = _feature_map(self.mechanism, self.coupling, self.num_features, self.dim,
                            self.seed, kernel=self.kernel, trial=self.trial,
                            data=self._statistics, **self.params)
        recipe = fmap._map._recipe()
        if recipe is None:  # MECHANISMS lists exactly the maps with a recipe (tested)
            raise ValueError(f"mechanism: '{self.mechanism}' has no closed-form feature map")
        self.mechanism_parameters: Dict[str, Any] = fmap.parameters
        self.symmetric: bool = bool(fmap.symmetric)
        self._set_recipe(recipe)
        assert self.width == fmap.width, (self.width, fmap.width)

    def _buffer(self, name: str, value: Any) -> None:
        """Registers (or replaces) a float64 buffer on the device the map is on."""
        device = self.omega.device if "omega" in self._buffers else None
        self.register_buffer(name, torch.as_tensor(_np.asarray(value, dtype=_np.float64),
                                                   device=device))

    def _set_recipe(self, recipe: Dict[str, Any]) -> None:
        self._form: str = recipe["form"]
        omega = _np.asarray(recipe["omega"], dtype=_np.float64)
        self._buffer("omega", omega)
        norm_squared = _np.sum(omega * omega, axis=1)
        if self._form == "exponential":
            self._a = complex(recipe["a"])
            self._s = int(recipe["s"])
            self._antithetic = bool(recipe["antithetic"])
            self._set_exponential_constants()
            # Re and Im of log D + A|ω_k|², per frequency (exponential_features.cpp).
            self._buffer("column_log", self._log_d.real + self._a.real * norm_squared)
            self._buffer("column_phase", self._log_d.imag + self._a.imag * norm_squared)
        elif self._form == "dense-exponential":
            a = _np.asarray(recipe["a"], dtype=_np.float64)
            self._buffer("derf_b", _np.sqrt(1.0 - 4.0 * a))
            # log D + Σ_l a_l ω_kl² per frequency (dense_exponential.cpp, derfLogFeatures).
            self._buffer("derf_column", 0.25 * _np.sum(_np.log1p(-4.0 * a)) + (omega ** 2) @ a)
            self._buffer("t1", recipe["t1"])
            self._buffer("t2", recipe["t2"])
        elif self._form == "random-phase":
            self._buffer("phases", recipe["phases"])
        else:
            raise ValueError(f"unknown feature-map form '{self._form}'")

    def _set_exponential_constants(self) -> None:
        b, self._log_d = _principal_constants(self._a, self._s, self.omega.shape[1])
        self._b = b
        self._complex = self._a.imag != 0 or self._s < 0
        self._c = -(self._s + 1) / 2.0

    def redraw(self, trial: Optional[int] = None) -> "RandomFeatureMap":
        """Draws fresh frequencies: the next trial of the seed (or `trial`), with the parameters
        chosen as before (given ones, or fit()'s data). The sequence of draws is reproducible:
        the same seed redraws the same frequencies in the same order."""
        self.trial = self.trial + 1 if trial is None else int(trial)
        self._draw()
        return self

    def fit(self, queries: Any, keys: Any = None) -> "RandomFeatureMap":
        """Chooses the data-driven parameters (OPRF's A*, GERF's A and s, SDERF's and ADERF's
        matrices; CRT §3) from the statistics of the rows of queries and keys (tensors or arrays
        of shape (..., dim)), redrawing the current trial with them (same frequencies: the draw
        does not depend on the parameters). Parameters given to the constructor are kept.

        The core chooses the parameters for the pairs of rows of one set (``rfscope.feature_map
        (..., data=)``), so queries and keys are pooled: up to 1000 evenly spaced rows of each
        (2000 of the queries alone).
        For OPRF the pooled mean |x + y|² differs from the two-set one by ½|mean q - mean k|²
        (nothing for centred inputs); ADERF's two matrices come from the pooled second moments.
        Mechanisms without data-driven parameters are redrawn unchanged."""
        sides = [queries] if keys is None else [queries, keys]
        per_side = 2 * _STATISTICS_ROWS_PER_SIDE if keys is None else _STATISTICS_ROWS_PER_SIDE
        rows = []
        for side in sides:
            array = side.detach().to("cpu", torch.float64).numpy() if torch.is_tensor(side) \
                else _np.asarray(side, dtype=_np.float64)
            if array.ndim < 1 or array.shape[-1] != self.dim:
                raise ValueError(f"fit: expected rows of dim = {self.dim} entries, got shape "
                                 f"{array.shape}")
            array = array.reshape(-1, self.dim)
            if array.shape[0] == 0:
                raise ValueError("fit: no rows")
            take = _np.unique(_np.linspace(0, array.shape[0] - 1,
                                           min(per_side, array.shape[0])).round().astype(int))
            rows.append(array[take])
        self._statistics = _np.ascontiguousarray(_np.concatenate(rows))
        self._draw()
        return self

    # ---- features --------------------------------------------------------------------------

    @property
    def width(self) -> int:
        """Columns of the features: M, or 2M for complex and antithetic ones."""
        m = self.num_features
        if self._form == "exponential" and (self._complex or self._antithetic):
            return 2 * m
        return m

    @property
    def positive(self) -> bool:
        """Whether every feature is positive (then so is attention's normaliser)."""
        return self._form == "dense-exponential" or (self._form == "exponential"
                                                     and not self._complex)

    def _exponents(self, x: torch.Tensor, keys: bool):
        """(E, finish): the log-magnitudes E (..., K) of the features and a function making the
        features from exp(E - c) (c a stabiliser, or 0), both in the compute dtype."""
        if not torch.is_tensor(x):
            raise TypeError(f"expected a torch.Tensor, got {type(x).__name__}")
        if x.ndim < 1 or x.shape[-1] != self.dim:
            raise ValueError(f"expected inputs of shape (..., {self.dim}), got "
                             f"{tuple(x.shape)}")
        compute = _compute_dtype(x.dtype)
        xc = x.to(compute)
        device = x.device

        def buffer(name: str) -> torch.Tensor:
            return getattr(self, name).to(device=device, dtype=compute)

        # Structured couplings pad the inputs with zeros to n ≥ d: the first d columns of Ω
        # meet them (x̃ = T x of the dense form has all n entries).
        omega = buffer("omega")
        if self._form != "dense-exponential":
            omega = omega[:, :self.dim]
        norm_squared = (xc * xc).sum(-1, keepdim=True)
        row = 0.5 * norm_squared if self.kernel == "softmax" else None
        inverse_root_m = 1.0 / math.sqrt(self.num_features)

        if self._form == "exponential":
            sign = self._s if keys else 1  # keys take sB for B
            b_real, b_imag = sign * self._b.real, sign * self._b.imag
            projections = xc @ omega.transpose(0, 1)
            constant = buffer("column_log") + self._c * norm_squared
            if row is not None:
                constant = constant + row
            exponents = projections * b_real + constant
            if self._antithetic:  # ω and -ω, each pair averaged: 1/√2 on each side
                exponents = torch.cat([exponents, constant - projections * b_real], dim=-1)
                weight = inverse_root_m * math.sqrt(0.5)
                return exponents, lambda e: e * weight
            if not self._complex:
                return exponents, lambda e: e * inverse_root_m
            phases = projections * b_imag + buffer("column_phase")
            imag_sign = -1.0 if keys else 1.0  # keys carry -Im f

            def complex_features(e: torch.Tensor) -> torch.Tensor:
                magnitude = e * inverse_root_m
                return torch.cat([magnitude * torch.cos(phases),
                                  magnitude * (imag_sign * torch.sin(phases))], dim=-1)
            return exponents, complex_features

        if self._form == "dense-exponential":
            t = buffer("t2" if keys else "t1")[:, :self.dim]
            transformed = xc @ t.transpose(0, 1)  # x̃ = T x, n entries
            exponents = (transformed * buffer("derf_b")) @ omega.transpose(0, 1)
            exponents = exponents + buffer("derf_column") - 0.5 * (
                norm_squared + (transformed * transformed).sum(-1, keepdim=True))
            if row is not None:
                exponents = exponents + row
            return exponents, lambda e: e * inverse_root_m

        # random-phase: √2 cos(ωᵀx + b_k)/√M, times e^{|x|²/2} for softmax
        cosines = torch.cos(xc @ omega.transpose(0, 1) + buffer("phases"))
        exponents = row if row is not None else torch.zeros_like(norm_squared)
        weight = math.sqrt(2.0) * inverse_root_m
        return exponents, lambda e: e * weight * cosines

    def _side(self, side: str) -> bool:
        if side not in _SIDES:
            raise ValueError(f"side: 'queries' or 'keys', got {side!r}")
        return side == "keys"

    def forward(self, x: torch.Tensor, side: str = "queries") -> torch.Tensor:
        """The features of x (..., dim) on `side` ("queries" or "keys"): (..., width), in x's
        dtype and on x's device, unbiased, without a stabiliser: ±inf where a feature exceeds the
        dtype (float16's 65504 = e^11: softmax trig features of |x|² > 22), 0 where it underflows
        (PosRF's e^{ωᵀx - |x|²/2} at large |x|), as the exact values would."""
        exponents, finish = self._exponents(x, self._side(side))
        return finish(torch.exp(exponents)).to(x.dtype)

    def scaled_features(self, x: torch.Tensor,
                        side: str = "queries") -> Tuple[torch.Tensor, torch.Tensor]:
        """(values, log_scale) with features = values · exp(log_scale), the values at most 1/√M
        in magnitude (× √2 for trig-phase), in x's dtype; log_scale in the compute dtype.

        Queries are divided by their row's largest feature magnitude (log_scale of shape
        (..., 1)); keys by the largest over the last two axes, the sequence of keys and the
        features (log_scale of shape (..., 1, 1)). In attention, Σⱼ φ(q)ᵀφ(kⱼ)vⱼ / Σⱼ φ(q)ᵀφ(kⱼ),
        a factor per query row and one shared by all keys cancel exactly, so attention needs
        only the values — no overflow at any input norm. (A factor per key row would not
        cancel.) The stabilisers are constants to autograd (detached), which is exact for
        attention: its output does not depend on them."""
        keys = self._side(side)
        exponents, finish = self._exponents(x, keys)
        if keys:
            if exponents.ndim < 2:
                raise ValueError("keys: expected a sequence of rows, shape (..., L, dim)")
            log_scale = exponents.detach().amax(dim=(-2, -1), keepdim=True)
        else:
            log_scale = exponents.detach().amax(dim=-1, keepdim=True)
        return finish(torch.exp(exponents - log_scale)).to(x.dtype), log_scale

    def extra_repr(self) -> str:
        params = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return (f"mechanism={self.mechanism!r}, coupling={self.coupling!r}, "
                f"num_features={self.num_features}, dim={self.dim}, kernel={self.kernel!r}, "
                f"seed={self.seed}, trial={self.trial}, width={self.width}{params}")

    # ---- device, dtype, state -----------------------------------------------------------------

    def _apply(self, fn, *args, **kwargs):
        # .to(device) moves the buffers; .half()/.to(dtype) would round the draw, so the buffers
        # keep float64 on whatever device fn chose.
        before = dict(self._buffers)
        super()._apply(fn, *args, **kwargs)
        for name, tensor in before.items():
            after = self._buffers.get(name)
            if tensor is not None and after is not None and after.dtype != torch.float64:
                self._buffers[name] = tensor.to(device=after.device)
        return self

    def get_extra_state(self) -> Dict[str, Any]:
        """What the buffers do not hold: the draw's position and the closed form's scalars, as
        one JSON string (floats round-trip exactly), and fit()'s rows as a tensor — types that
        ``torch.load(..., weights_only=True)`` reads in every torch version."""
        scalars: Dict[str, Any] = {
            "mechanism": self.mechanism, "coupling": self.coupling, "kernel": self.kernel,
            "seed": self.seed, "trial": self.trial, "params": self.params,
            "mechanism_parameters": self.mechanism_parameters, "symmetric": self.symmetric,
            "form": self._form, "fitted": self._statistics is not None,
        }
        if self._form == "exponential":
            scalars.update(a=[self._a.real, self._a.imag], s=self._s,
                           antithetic=self._antithetic)
        statistics = (self._statistics if self._statistics is not None
                      else _np.zeros((0, self.dim)))
        return {"scalars": _json.dumps(scalars), "statistics": torch.from_numpy(statistics.copy())}

    def set_extra_state(self, state: Dict[str, Any]) -> None:
        scalars = _json.loads(state["scalars"])
        for key in ("mechanism", "coupling", "kernel"):
            if scalars[key] != getattr(self, key):
                raise ValueError(f"load_state_dict: the state is of a map with {key} "
                                 f"{scalars[key]!r}, this one has {getattr(self, key)!r}")
        self.seed, self.trial = int(scalars["seed"]), int(scalars["trial"])
        self.params = dict(scalars["params"])
        self._statistics = (_np.array(state["statistics"].cpu().numpy(), dtype=_np.float64)
                            if scalars["fitted"] else None)
        self.mechanism_parameters = dict(scalars["mechanism_parameters"])
        self.symmetric = bool(scalars["symmetric"])
        self._form = scalars["form"]
        if self._form == "exponential":
            self._a = complex(*scalars["a"])
            self._s = int(scalars["s"])
            self._antithetic = bool(scalars["antithetic"])
            self._set_exponential_constants()


class LinearAttention(nn.Module):
    """Random-feature (Performer) attention: softmax(q kᵀ/√d) v estimated in O(L·M).

    ``forward(q, k, v)`` with q of shape (..., L_q, d), k (..., L_k, d), v (..., L_k, d_v) (any
    leading batch dimensions, broadcast: (B, H, L, d) for multi-head attention) returns
    (..., L_q, d_v): D̂⁻¹ φ(q)(φ(k)ᵀv), D̂ = φ(q)(φ(k)ᵀ1), with φ the feature map at q·d^{-1/4}
    and k·d^{-1/4}, so that φ(q)ᵀφ(k) estimates exp(qᵀk/√d) (kernel="softmax"; a Gaussian map
    gives the Gaussian-kernel attention exp(-|q - k|²/(2√d)) instead). causal=True lets row i
    attend to keys j ≤ i, by prefix sums of φ(k)ᵀv over chunks of `chunk_size` rows (memory
    O(M·d_v) per sequence, not O(L·M·d_v)).

    Both φ(q) and φ(k) are stabilised (``RandomFeatureMap.scaled_features``): constants that
    cancel exactly in the ratio, so that half-precision inputs do not overflow. The keys' constant
    is the largest exponent over the whole sequence, later keys included: it cancels in every
    prefix, so causal outputs do not depend on later keys (tested), but a later key much larger
    than the earlier ones lowers their features towards the dtype's underflow. With float16 and
    bfloat16 inputs the features are computed in float32 and the products in the input's dtype;
    the causal running sums are kept in float32.

    The normaliser. Positive features (pos, pos-hyp, oprf, real GERF with s = +1, sderf, aderf,
    saderf) give D̂ > 0; it is clamped at `eps` (default: the compute dtype's smallest normal number)
    only against underflow. Trig, trig-phase and complex GERF features are signed: D̂ is an
    unbiased but signed estimate that can be near zero or negative at small M or large inputs,
    where the output's rows are unbounded or flipped; such a D̂ is kept (its magnitude raised to
    eps if smaller, with its sign), not hidden. Prefer positive features for attention.
    """

    def __init__(self, feature_map: RandomFeatureMap, causal: bool = False,
                 eps: Optional[float] = None, chunk_size: int = 64):
        super().__init__()
        if not isinstance(feature_map, RandomFeatureMap):
            raise TypeError("feature_map: expected a rfscope.torch.RandomFeatureMap")
        if int(chunk_size) < 1:
            raise ValueError(f"chunk_size: a positive integer, got {chunk_size!r}")
        self.feature_map = feature_map
        self.causal = bool(causal)
        self.eps = eps
        self.chunk_size = int(chunk_size)

    def _scale(self) -> float:
        return self.feature_map.dim ** -0.25

    def fit(self, q: Any, k: Any) -> "LinearAttention":
        """The feature map's data-driven parameters from the scaled queries and keys
        (``RandomFeatureMap.fit``)."""
        scale = self._scale()
        if torch.is_tensor(q):
            self.feature_map.fit(q * scale, k * scale)
        else:
            self.feature_map.fit(_np.asarray(q) * scale, _np.asarray(k) * scale)
        return self

    def redraw(self, trial: Optional[int] = None) -> "LinearAttention":
        """Fresh frequencies (``RandomFeatureMap.redraw``)."""
        self.feature_map.redraw(trial)
        return self

    def features(self, q: torch.Tensor, k: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """The stabilised features (φ(q), φ(k)) that forward() contracts."""
        scale = self._scale()
        query_features, _ = self.feature_map.scaled_features(q * scale, "queries")
        key_features, _ = self.feature_map.scaled_features(k * scale, "keys")
        return query_features, key_features

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        d = self.feature_map.dim
        if q.shape[-1] != d or k.shape[-1] != d:
            raise ValueError(f"q and k: expected last dimension d = {d}, got {tuple(q.shape)} "
                             f"and {tuple(k.shape)}")
        if q.ndim < 2 or k.ndim < 2 or v.ndim < 2 or k.shape[-2] != v.shape[-2]:
            raise ValueError(f"expected q (..., L_q, d), k (..., L_k, d), v (..., L_k, d_v), got "
                             f"{tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}")
        if self.causal and q.shape[-2] != k.shape[-2]:
            raise ValueError(f"causal: queries and keys must be as many, got {q.shape[-2]} and "
                             f"{k.shape[-2]}")
        query_features, key_features = self.features(q, k)
        v = v.to(query_features.dtype)
        if self.causal:
            numerator, denominator = self._causal(query_features, key_features, v)
        else:
            numerator = query_features @ (key_features.transpose(-2, -1) @ v)
            denominator = query_features @ key_features.sum(-2).unsqueeze(-1)
        return numerator / self._guarded(denominator)

    def _guarded(self, denominator: torch.Tensor) -> torch.Tensor:
        eps = self.eps if self.eps is not None else torch.finfo(
            _compute_dtype(denominator.dtype)).tiny
        if self.feature_map.positive:
            return denominator.clamp_min(eps)
        floor = torch.full_like(denominator, eps)
        floor = torch.where(denominator < 0, -floor, floor)
        return torch.where(denominator.abs() < eps, floor, denominator)

    def _causal(self, query_features: torch.Tensor, key_features: torch.Tensor,
                v: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """Numerator and denominator of causal attention: within a chunk the masked products,
        before it the running sums Σ_{j<start} φ(k_j)v_jᵀ and Σ φ(k_j) (float32 for half types)."""
        length, size = query_features.shape[-2], self.chunk_size
        dtype = query_features.dtype
        accumulate = _compute_dtype(dtype)
        mask = torch.ones(size, size, dtype=torch.bool, device=query_features.device).tril()
        running_kv: Optional[torch.Tensor] = None
        running_k: Optional[torch.Tensor] = None
        numerators, denominators = [], []
        for start in range(0, length, size):
            stop = min(start + size, length)
            q_c = query_features[..., start:stop, :]
            k_c = key_features[..., start:stop, :]
            v_c = v[..., start:stop, :]
            scores = (q_c @ k_c.transpose(-2, -1)).masked_fill(
                ~mask[:stop - start, :stop - start], 0)
            numerator = scores @ v_c
            denominator = scores.sum(-1, keepdim=True)
            if running_kv is not None:
                numerator = numerator + q_c @ running_kv.to(dtype)
                denominator = denominator + q_c @ running_k.to(dtype).unsqueeze(-1)
            chunk_kv = (k_c.transpose(-2, -1) @ v_c).to(accumulate)
            chunk_k = k_c.sum(-2, dtype=accumulate)
            running_kv = chunk_kv if running_kv is None else running_kv + chunk_kv
            running_k = chunk_k if running_k is None else running_k + chunk_k
            numerators.append(numerator)
            denominators.append(denominator)
        return torch.cat(numerators, dim=-2), torch.cat(denominators, dim=-2)

    def extra_repr(self) -> str:
        return f"causal={self.causal}, eps={self.eps}, chunk_size={self.chunk_size}"


def exact_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False,
                    kernel: str = "softmax") -> torch.Tensor:
    """The attention LinearAttention estimates, computed exactly in O(L²): weights ∝
    exp(qᵀk/√d) (softmax) or exp(-|q - k|²/(2√d)) (gaussian), normalised over the keys (j ≤ i
    when causal)."""
    d = q.shape[-1]
    if kernel == "softmax":
        scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    elif kernel == "gaussian":  # -|q - k|², less the row's |q|², which softmax ignores
        scores = (2.0 * (q @ k.transpose(-2, -1)) - (k * k).sum(-1).unsqueeze(-2)) / (
            2.0 * math.sqrt(d))
    else:
        raise ValueError(f"kernel: 'softmax' or 'gaussian', got {kernel!r}")
    if causal:
        upper = torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(upper, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
