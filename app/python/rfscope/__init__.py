"""RFScope from Python: exact variances of random-feature kernel estimators, Monte Carlo, feature maps.

The closed forms (evaluated in the log domain), the Monte Carlo engine, the feature maps and the
experiments are RFScope's C++ core, the very code behind ``rfscope-cli``: the same inputs give the
same numbers, to the last digit, and bad input raises ``ValueError`` with the command line's message.

Catalogue:   mechanisms(), couplings(), kernels(), experiments(), presets()
Closed forms: variance(mechanism, x, y, ...), conformity(mechanism, x, y, ...)
Monte Carlo:  monte_carlo(mechanism, x, y, ..., trials=, seed=)
Features:     feature_map(mechanism, coupling, m, d, seed, ...).transform(X)
scikit-learn: rfscope.sklearn.RandomFeatures (a transformer)
PyTorch:      rfscope.torch.RandomFeatureMap, LinearAttention (modules; import rfscope.torch,
              which needs torch: `import rfscope` does not)
Experiments:  run(experiment, **params) -> pandas.DataFrame, or a dict of NumPy columns
Files:        run(experiment, output="t.json", **params) writes the table as rfscope-cli does;
              output_formats() lists the formats

Pairs are NumPy arrays: x and y of shape (d,) for one pair, or (L, d) for L pairs (a (d,) array
pairs with every row of the other). Computations run without the GIL and stop on Ctrl-C
(KeyboardInterrupt). A value without a closed form raises NoClosedFormError.

Example::

    import numpy as np, rfscope
    rng = np.random.default_rng(0)
    x, y = 0.3 * rng.standard_normal((2, 1000, 16))
    v = rfscope.variance("oprf", x, y, m=64)
    print(np.mean(v.log_variance))
"""

from __future__ import annotations

import contextlib as _contextlib
import copy as _copy
import dataclasses as _dataclasses
import json as _json
import math as _math
import re as _re
import typing as _typing
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union

import numpy as _np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from . import _core
from ._core import NoClosedFormError, NotAvailableError

__version__: str = _core.__version__

__all__ = [
    "Analytic",
    "Bias",
    "Conformity",
    "FeatureMap",
    "Histogram",
    "MonteCarlo",
    "NoClosedFormError",
    "NotAvailableError",
    "Variance",
    "bias",
    "conformity",
    "couplings",
    "experiments",
    "feature_map",
    "kernels",
    "mechanisms",
    "monte_carlo",
    "output_formats",
    "presets",
    "run",
    "variance",
]

NoClosedFormError.__doc__ = (
    "No closed-form value: none exists for the mechanism under the coupling, or it cannot be "
    "evaluated at the input (the message gives the reason, as `rfscope-cli analytic` does)."
)
NotAvailableError.__doc__ = (
    "No value: a combination the core does not offer (e.g. a feature map under a coupling it does "
    "not draw). NoClosedFormError is a kind of it."
)


# ---- Python-side names ---------------------------------------------------------------------------

def _python_message(text: str) -> str:
    """The core's message with Python's names for what the command line calls --m, --x, --path."""
    return _re.sub(r"--([a-z][a-z0-9-]*)", lambda m: m.group(1).replace("-", "_"), text)


@_contextlib.contextmanager
def _python_names() -> Iterator[None]:
    try:
        yield
    except ValueError as error:
        message = str(error)
        if "--" not in message:
            raise
        raise type(error)(_python_message(message)) from None


def _json_numbers(value: Any) -> Any:
    """JSON with the core's "-inf"/"inf"/"nan" strings (logs of zero, overflowed values) as floats."""
    if isinstance(value, dict):
        return {k: _json_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_numbers(v) for v in value]
    if value in ("-inf", "inf", "nan"):
        return float(value)
    return value


# ---- catalogue ----------------------------------------------------------------------------------

def _catalog() -> Dict[str, Any]:
    return _typing.cast(Dict[str, Any], _json.loads(_core._catalog()))


def mechanisms() -> List[Dict[str, Any]]:
    """The mechanisms (id, name, description, traits, parameter specs), as `rfscope-cli list`."""
    return _typing.cast(List[Dict[str, Any]], _catalog()["mechanisms"])


def couplings() -> List[Dict[str, Any]]:
    """The couplings of the frequencies (id, name, description), as `rfscope-cli list`."""
    return _typing.cast(List[Dict[str, Any]], _catalog()["couplings"])


def kernels() -> List[Any]:
    """The kernels (gaussian, softmax), as `rfscope-cli list`."""
    return _typing.cast(List[Any], _catalog()["kernels"])


def experiments() -> List[Dict[str, Any]]:
    """The experiments with their parameter specs, as `rfscope-cli list`."""
    return _typing.cast(List[Dict[str, Any]], _catalog()["experiments"])


def presets() -> List[Dict[str, Any]]:
    """The presets (id, title, experiment, values), as `rfscope-cli list`."""
    return _typing.cast(List[Dict[str, Any]], _catalog()["presets"])


# ---- input conversion ---------------------------------------------------------------------------

def _parameter_text(key: str, value: Any) -> str:
    """A parameter value as the command line reads it (floats round-trip exactly through repr)."""
    if isinstance(value, (bool, _np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, (float, _np.floating)):
        return repr(float(value))
    if isinstance(value, (int, _np.integer, str)):
        return str(value)
    raise TypeError(f"parameter {key!r}: expected a number, bool, string or list of strings, "
                    f"got {type(value).__name__}")


def _integer(name: str, value: Any) -> int:
    if isinstance(value, (bool, _np.bool_)) or not isinstance(value, (int, _np.integer)):
        raise TypeError(f"{name}: expected an integer, got {type(value).__name__}")
    return int(value)


def _unsigned(name: str, value: Any) -> int:
    """A seed or stream number: an integer in [0, 2**64)."""
    number = _integer(name, value)
    if not 0 <= number < 2 ** 64:
        raise ValueError(f"{name}: must be between 0 and 2**64 - 1, got {number}")
    return number


def _estimator_arguments(mechanism: str, kernel: str, coupling: str, m: int,
                         params: Dict[str, Any]) -> List[str]:
    for name, value in (("mechanism", mechanism), ("kernel", kernel), ("coupling", coupling)):
        if not isinstance(value, str):
            raise TypeError(f"{name}: expected a string id, got {type(value).__name__}")
    arguments = ["--mechanism", mechanism, "--kernel", kernel, "--coupling", coupling,
                 "--m", str(_integer("m", m))]
    for key, value in params.items():
        arguments += ["--param", f"{key}={_parameter_text(key, value)}"]
    return arguments


def _real_array(name: str, value: ArrayLike) -> NDArray[Any]:
    array = _np.asarray(value)
    if array.dtype.kind not in "fiu" or array.dtype == _np.float16:
        raise TypeError(f"{name}: expected an array of real numbers (float64, float32 or "
                        f"integers), got dtype {array.dtype}")
    return array


def _points(name: str, value: ArrayLike) -> NDArray[_np.float64]:
    """A (L, d) C-contiguous float64 array of the points in value: (d,) is one point."""
    array = _real_array(name, value)
    if array.ndim == 1:
        array = array[_np.newaxis, :]
    if array.ndim != 2:
        raise ValueError(f"{name}: expected an array of shape (d,) or (L, d), got shape "
                         f"{array.shape}")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"{name}: expected at least one point of at least one entry, got shape "
                         f"{array.shape}")
    return _np.ascontiguousarray(array, dtype=_np.float64)


def _pairs(x: ArrayLike,
           y: ArrayLike) -> Tuple[NDArray[_np.float64], NDArray[_np.float64], bool]:
    """(X, Y, single): the pairs as two (L, d) arrays; single when both were (d,)."""
    xs, ys = _points("x", x), _points("y", y)
    if xs.shape[1] != ys.shape[1]:
        raise ValueError(f"x has {xs.shape[1]} entries per point but y has {ys.shape[1]}")
    if xs.shape[0] != ys.shape[0]:
        if xs.shape[0] == 1:
            xs = _np.ascontiguousarray(_np.broadcast_to(xs, ys.shape))
        elif ys.shape[0] == 1:
            ys = _np.ascontiguousarray(_np.broadcast_to(ys, xs.shape))
        else:
            raise ValueError(f"x has {xs.shape[0]} points but y has {ys.shape[0]} (pairs are "
                             f"rows of the same index; a single point pairs with every row)")
    single = _np.ndim(x) == 1 and _np.ndim(y) == 1
    return xs, ys, single


# ---- closed forms -------------------------------------------------------------------------------

class Variance(NamedTuple):
    """The variance (= MSE where the estimator is unbiased; bias() gives the bias of
    "orf-fixed-norm") of the M-feature estimator about its mean and the kernel
    it estimates, at each pair. Plain values are exp of the logs (inf or 0 where a double cannot
    hold them: use the logs, which are finite or -inf for an exact zero)."""

    variance: Union[float, NDArray[_np.float64]]
    log_variance: Union[float, NDArray[_np.float64]]
    kernel_value: Union[float, NDArray[_np.float64]]
    log_kernel_value: Union[float, NDArray[_np.float64]]


class Bias(NamedTuple):
    """The bias E K̂ - K of the M-feature estimator (0 where it is unbiased; orf-fixed-norm's mean
    is a Bessel kernel, not the Gaussian) and its mean squared error Var + bias² against the kernel,
    with the MSE's log, at each pair."""

    bias: Union[float, NDArray[_np.float64]]
    mse: Union[float, NDArray[_np.float64]]
    log_mse: Union[float, NDArray[_np.float64]]


class Conformity(NamedTuple):
    """The RF-conformity ρ of the coupling (SimRF eq. 10) at each pair, and its log."""

    conformity: Union[float, NDArray[_np.float64]]
    log_conformity: Union[float, NDArray[_np.float64]]


# Pairs per call of the core in all-pairs mode: blocks of rows of x against every row of y, so
# that the repeated inputs stay small (≈ 65536 pairs × d doubles) and Ctrl-C is seen between them.
_ALL_PAIRS_BLOCK = 65536


def _analytic(mechanism: str, x: ArrayLike, y: ArrayLike, kernel: str, coupling: str, m: int,
              params: Dict[str, Any], with_conformity: bool,
              all_pairs: bool = False) -> Tuple[Any, ...]:
    arguments = _estimator_arguments(mechanism, kernel, coupling, m, params)
    if all_pairs:
        xs, ys = _points("x", x), _points("y", y)
        if xs.shape[1] != ys.shape[1]:
            raise ValueError(f"x has {xs.shape[1]} entries per point but y has {ys.shape[1]}")
        rows_per_block = max(1, _ALL_PAIRS_BLOCK // ys.shape[0])
        blocks = []
        for first in range(0, xs.shape[0], rows_per_block):
            block = xs[first:first + rows_per_block]
            with _python_names():
                blocks.append(_core._analytic(
                    arguments, _np.repeat(block, ys.shape[0], axis=0),
                    _np.tile(ys, (block.shape[0], 1)), with_conformity))
        return tuple(_np.concatenate([b[i] for b in blocks]).reshape(xs.shape[0], ys.shape[0])
                     for i in range(len(blocks[0])))
    xs, ys, single = _pairs(x, y)
    with _python_names():
        columns = _core._analytic(arguments, xs, ys, with_conformity)
    if single:
        return tuple(float(c[0]) for c in columns)
    return columns


def variance(mechanism: str, x: ArrayLike, y: ArrayLike, *, kernel: str = "gaussian",
             coupling: str = "iid", m: int = 1, all_pairs: bool = False,
             **params: Any) -> Variance:
    """Exact variance of the M-feature estimator of `kernel` at the pairs (x[i], y[i]).

    mechanism: an id of mechanisms() ("trig", "pos", "oprf", ...); kernel: "gaussian" or
    "softmax"; coupling: "iid", "orf", "simrf" (closed forms exist {closed_forms}); m: the number
    of features;
    params: the mechanism's parameters (e.g. A=-0.1 for "oprf"; see mechanisms()), unset
    automatic ones chosen at each pair as the command line does.

    x, y: arrays of shape (d,) (one pair: floats are returned) or (L, d) (L pairs: arrays of L).
    all_pairs=True pairs every row of x (L1, d) with every row of y (L2, d) instead: arrays of
    shape (L1, L2), entry [i, j] at the pair (x[i], y[j]) — the variance of every entry of a
    kernel matrix's estimate. m defaults to 1: the variance of one feature. Returns Variance(variance, log_variance, kernel_value, log_kernel_value), equal to
    `rfscope-cli analytic` at each pair. Raises ValueError for bad input (the command line's
    message), TypeError for arrays that are not real numbers, NoClosedFormError where there is no
    closed form.
    """
    log_v, v, log_k, k = _analytic(mechanism, x, y, kernel, coupling, m, params, False,
                                   all_pairs)[:4]
    return Variance(v, log_v, k, log_k)


def _closed_forms_text() -> str:
    """Where closed forms exist, from the registry (mechanisms()[i]["closed_forms"])."""
    everywhere = [m["id"] for m in mechanisms() if "iid" in m["closed_forms"]]
    coupled = ["'{}' under {}".format(m["id"], ", ".join(c for c in m["closed_forms"] if c != "iid"))
               for m in mechanisms() if any(c != "iid" for c in m["closed_forms"])]
    text = "under \"iid\" for " + ("every mechanism" if len(everywhere) == len(mechanisms())
                                     else ", ".join(everywhere))
    return text + ("; coupled: " + "; ".join(coupled) if coupled else "")


variance.__doc__ = (variance.__doc__ or "").replace("{closed_forms}", _closed_forms_text())


def bias(mechanism: str, x: ArrayLike, y: ArrayLike, *, kernel: str = "gaussian",
         coupling: str = "iid", m: int = 1, all_pairs: bool = False, **params: Any) -> Bias:
    """Bias and MSE of the M-feature estimator at the pairs (x[i], y[i]), where variance() has a
    closed form (the arguments are its). variance() is about the estimator's own mean; the MSE
    against the kernel adds bias², which does not fall with m: under "orf-fixed-norm" the MSE
    levels off at bias² as m grows. Returns Bias(bias, mse, log_mse)."""
    columns = _analytic(mechanism, x, y, kernel, coupling, m, params, False, all_pairs)
    log_mse = columns[5]
    return Bias(columns[4], _np.exp(log_mse) if not isinstance(log_mse, float)
                else float(_np.exp(log_mse)), log_mse)


def conformity(mechanism: str, x: ArrayLike, y: ArrayLike, *, kernel: str = "gaussian",
               coupling: str = "iid", m: int = 1, all_pairs: bool = False,
               **params: Any) -> Conformity:
    """RF-conformity ρ of the coupling at the pairs (x[i], y[i]) (SimRF eq. 10), where the theory
    has one (positive features under iid, orf, simrf); the arguments (all_pairs included) are
    variance()'s.
    Returns Conformity(conformity, log_conformity); raises NoClosedFormError elsewhere."""
    columns = _analytic(mechanism, x, y, kernel, coupling, m, params, True, all_pairs)
    return Conformity(columns[7], columns[6])


# ---- Monte Carlo --------------------------------------------------------------------------------

def _number_list(name: str, value: ArrayLike) -> str:
    array = _real_array(name, value)
    if array.ndim != 1:
        raise ValueError(f"{name}: expected one point, an array of shape (d,), got shape "
                         f"{array.shape}")
    return ",".join(repr(float(v)) for v in array)


class Histogram(NamedTuple):
    """The estimates' histogram: counts[i] in [edges[i], edges[i + 1]); on log K̂ where log_scale."""

    edges: NDArray[_np.float64]
    counts: NDArray[_np.int64]
    log_scale: bool
    samples: int


class Analytic(NamedTuple):
    """The closed-form variance beside a Monte Carlo result."""

    variance: float
    log_variance: float


@_dataclasses.dataclass(frozen=True)
class MonteCarlo:
    """A Monte Carlo run at one pair (monte_carlo()): `rfscope-cli mc`'s result with floats
    throughout (a zero variance's log_variance is -inf) and Python's names.

    variance is the sample variance of the trials' M-feature estimates, variance_stderr its
    standard error and ci95 its 95% interval (log_ci95 in logs); analytic the closed form (None,
    with analytic_note, where there is none); heavy_tail flags a sample whose interval cannot be
    trusted, with the reasons; quantiles maps each level asked for to the estimates' quantile.
    to_dict() gives the JSON object as the command line writes it (numbers as floats)."""

    mechanism: str
    coupling: str
    kernel: str
    m: int
    d: int
    trials: int
    seed: int
    path: str
    params: Dict[str, Any]
    mean: float
    variance: float
    log_variance: float
    variance_stderr: float
    variance_relative_stderr: float
    ci95: Tuple[float, float]
    log_ci95: Tuple[float, float]
    kernel_value: float
    log_kernel_value: float
    analytic: Optional[Analytic]
    analytic_note: Optional[str]
    heavy_tail: bool
    heavy_tail_reasons: List[str]
    trials_needed: Optional[float]
    error_skewness: Optional[float]
    quantiles: Dict[float, float]
    histogram: Histogram
    backend: str
    backend_requested: str
    backend_note: Optional[str]
    simd_target: Optional[str]
    seconds: float
    features_per_second: float
    _json: Dict[str, Any] = _dataclasses.field(repr=False, compare=False)

    @classmethod
    def _from_json(cls, value: Dict[str, Any]) -> "MonteCarlo":
        histogram = value["histogram"]
        analytic = value.get("analytic")

        def number(name: str) -> float:  # JSON's null (no relative error of a zero) as nan
            return _np.nan if value.get(name) is None else float(value[name])

        def optional(name: str) -> Optional[float]:  # null where nothing is known: None
            return None if value.get(name) is None else float(value[name])

        return cls(mechanism=str(value["mechanism"]), coupling=str(value["coupling"]),
                   kernel=str(value["kernel"]), m=int(value["m"]), d=int(value["d"]),
                   trials=int(value["trials"]), seed=int(value["seed"]), path=str(value["path"]),
                   params=dict(value.get("params", {})), mean=number("mean"),
                   variance=number("variance"), log_variance=number("log_variance"),
                   variance_stderr=number("variance_stderr"),
                   variance_relative_stderr=number("variance_relative_stderr"),
                   kernel_value=number("kernel_value"),
                   log_kernel_value=number("log_kernel_value"),
                   analytic_note=value.get("analytic_note"),
                   heavy_tail=bool(value["heavy_tail"]),
                   heavy_tail_reasons=list(value.get("heavy_tail_reasons", [])),
                   trials_needed=optional("trials_needed"),
                   error_skewness=optional("error_skewness"),
                   backend=str(value["backend"]), backend_requested=str(value["backend_requested"]),
                   backend_note=value.get("backend_note"), simd_target=value.get("simd_target"),
                   seconds=number("seconds"), features_per_second=number("features_per_second"),
                   ci95=(float(value["ci95"][0]), float(value["ci95"][1])),
                   log_ci95=(float(value["log_ci95"][0]), float(value["log_ci95"][1])),
                   analytic=None if analytic is None else Analytic(
                       float(analytic["variance"]), float(analytic["log_variance"])),
                   quantiles={float(level): float(q)
                              for level, q in value.get("quantiles", {}).items()},
                   histogram=Histogram(_np.asarray(histogram["edges"], dtype=_np.float64),
                                       _np.asarray(histogram["counts"], dtype=_np.int64),
                                       bool(histogram["log_scale"]), int(histogram["samples"])),
                   _json=value)

    def to_dict(self) -> Dict[str, Any]:
        """The command line's JSON object (numbers as floats; -inf for a log of zero)."""
        return _copy.deepcopy(self._json)


def monte_carlo(mechanism: str, x: ArrayLike, y: ArrayLike, *, kernel: str = "gaussian",
                coupling: str = "iid", m: int = 1, trials: int = 100000, seed: int = 1,
                threads: int = 0, path: str = "fast", quantiles: Optional[ArrayLike] = None,
                backend: str = "auto", **params: Any) -> MonteCarlo:
    """Monte Carlo variance of the M-feature estimator at ONE pair (x, y of shape (d,)).

    The arguments are variance()'s plus trials (128 to 1e9), seed (same seed, same numbers for
    any thread count), threads (0: all cores), path ("fast" or "full"), quantiles (levels in
    [0, 1]) and backend ("cpu", "cuda", "auto"); couplings also include "simrf-plus",
    "orf-fast", "simrf-fast", "orf-norm-coupled". Returns a MonteCarlo: mean, variance with variance_stderr and ci95
    (and their logs), quantiles, histogram, heavy_tail with its reasons, backend, throughput,
    analytic (the closed form, or None with analytic_note), and where the estimator's moments
    have closed forms trials_needed (the trials its 95% interval needs: more than trials means
    heavy_tail) and error_skewness (the skewness of the squared error (K̂ - K)²) — `rfscope-cli mc`'s result, floats
    throughout (a zero variance's log_variance is -inf). Bad input raises ValueError with
    `rfscope-cli mc`'s message in Python's names ("m: …", not "--m: …").
    """
    arguments = _estimator_arguments(mechanism, kernel, coupling, m, params)
    arguments += ["--x", _number_list("x", x), "--y", _number_list("y", y),
                  "--trials", str(_integer("trials", trials)),
                  "--seed", str(_unsigned("seed", seed)),
                  "--threads", str(_integer("threads", threads)),
                  "--path", str(path), "--backend", str(backend)]
    if quantiles is not None:
        arguments += ["--quantiles", _number_list("quantiles", quantiles)]
    with _python_names():
        value = _json_numbers(_json.loads(_core._monte_carlo(arguments)))
    return MonteCarlo._from_json(value)


# ---- feature maps -------------------------------------------------------------------------------

class FeatureMap:
    """One draw of a mechanism's random features (made by feature_map()).

    transform(X) maps the rows of X (L × d) to features (L × width); for every pair of rows,
    transform(X) @ transform_keys(Y).T is the mechanism's unbiased M-feature estimate K̂ of the
    kernel (the 1/M included). width is M times the features per frequency: 1 for pos, oprf,
    real-A GERF, the discrete mechanisms and maclaurin (one feature per random degree), 2 for
    trig (cos, sin), pos-hyp and complex GERF, more for the hybrids. Queries and keys differ where the estimator is asymmetric (symmetric tells).
    """

    def __init__(self, core_map: _core._FeatureMap):
        self._map = core_map

    @property
    def d(self) -> int:
        """The input dimension."""
        return self._map.d

    @property
    def m(self) -> int:
        """The number of frequencies M."""
        return self._map.m

    @property
    def width(self) -> int:
        """Columns of the features."""
        return self._map.width

    @property
    def symmetric(self) -> bool:
        """Whether queries and keys are the same features."""
        return self._map.symmetric

    @property
    def mechanism(self) -> str:
        return self._map.mechanism

    @property
    def parameters(self) -> Dict[str, Any]:
        """The mechanism's parameters, automatic ones resolved, that the map was drawn with."""
        return _typing.cast(Dict[str, Any], _json.loads(self._map._parameters_json()))

    @property
    def shift(self) -> NDArray[_np.float64]:
        """PoisRF+/GeomRF+: the shift c subtracted from every input (empty for the others)."""
        return _np.asarray(self._map._shift, dtype=_np.float64)

    def _features(self, name: str, points: ArrayLike, keys: bool,
                  dtype: DTypeLike) -> NDArray[_np.floating[Any]]:
        dtype = _np.dtype(dtype)
        if dtype not in (_np.float64, _np.float32):
            raise TypeError(f"dtype: float64 or float32, got {dtype}")
        array = _real_array(name, points)
        if array.ndim != 2:
            raise ValueError(f"{name}: expected an array of shape (L, d), got shape {array.shape}")
        # float32: computed in single precision by the core, written straight into the array.
        features = self._map.features(_np.ascontiguousarray(array, dtype=_np.float64), keys,
                                      False, dtype == _np.float32)
        return _typing.cast(NDArray[_np.floating[Any]], features)

    def transform(self, X: ArrayLike, dtype: DTypeLike = _np.float64) -> NDArray[_np.floating[Any]]:
        """Features (queries) of the rows of X (L × d, float64/float32/integers) as an L × width
        array of dtype float64 or float32 (±inf where a feature exceeds the dtype's range).
        float32 features of the exponential and random-phase mechanisms (pos, oprf, gerf, trig,
        trig-phase, …) are computed in single precision: within about d·2^-24·Σ_l |ω_l x_l| of
        the float64 ones, relative to the row's largest feature."""
        return self._features("X", X, False, dtype)

    def transform_keys(self, Y: ArrayLike,
                       dtype: DTypeLike = _np.float64) -> NDArray[_np.floating[Any]]:
        """Features of the key side (equal to transform() where symmetric)."""
        return self._features("Y", Y, True, dtype)

    def transform_scaled(self, X: ArrayLike,
                         keys: bool = False) -> Tuple[NDArray[_np.float64], NDArray[_np.float64]]:
        """(values, log_scale): features = values * exp(log_scale)[:, None] with |values| <= 1,
        for features a double cannot hold (e.g. softmax features of large inputs)."""
        array = _real_array("X", X)
        if array.ndim != 2:
            raise ValueError(f"X: expected an array of shape (L, d), got shape {array.shape}")
        values, log_scale = self._map.features(_np.ascontiguousarray(array, dtype=_np.float64),
                                               keys, True)
        return values, log_scale

    def kernel(self, X: ArrayLike, Y: ArrayLike) -> NDArray[_np.float64]:
        """K̂(X[i], Y[j]) for all i, j (L_X × L_Y), computed without overflow in between."""
        xs = _np.ascontiguousarray(_real_array("X", X), dtype=_np.float64)
        ys = _np.ascontiguousarray(_real_array("Y", Y), dtype=_np.float64)
        if xs.ndim != 2 or ys.ndim != 2:
            raise ValueError(f"X and Y: expected arrays of shape (L, d), got shapes {xs.shape} "
                             f"and {ys.shape}")
        return self._map.kernel(xs, ys)

    def __repr__(self) -> str:
        return (f"FeatureMap(mechanism={self.mechanism!r}, m={self.m}, d={self.d}, "
                f"width={self.width})")


def feature_map(mechanism: str, coupling: str = "iid", m: Optional[int] = None,
                d: Optional[int] = None, seed: int = 1, *, kernel: str = "gaussian",
                trial: int = 0, x: Optional[ArrayLike] = None, y: Optional[ArrayLike] = None,
                data: Optional[ArrayLike] = None, shift: Optional[ArrayLike] = None,
                **params: Any) -> FeatureMap:
    """Draw a feature map: M frequencies of `coupling` in dimension d (and whatever else the
    mechanism draws) from Philox stream `trial` under `seed` — the same draw as the C++ core's (and
    as the Monte Carlo engine's trial of that number), so the same seed gives the same features.

    params: the mechanism's parameters. Automatic ones (OPRF's A*, GERF's optimum, λ*, p*) are
    chosen at the pair (x, y) (arrays of shape (d,), the origin by default); PoisRF+/GeomRF+ shift
    by min(x, y) - epsilon. With data (an (L, d) array) they are chosen for every pair of its rows
    instead, from its statistics (CRT §3; SDERF/ADERF: its second moments), and PoisRF+/GeomRF+
    shift by the data's minimum. Raises ValueError for bad input, NotAvailableError where the
    mechanism has no feature map under the coupling. m (the number of frequencies M) is
    required, and so is d unless data gives it.
    """
    if m is None:
        raise TypeError("feature_map() needs m, the number of frequencies M (no default: a map of "
                        "one frequency is rarely what is meant)")
    if d is None:
        if data is None:
            raise TypeError("feature_map() needs d, the input dimension (or data=X, whose columns "
                            "give it)")
        d = _np.shape(data)[-1] if _np.ndim(data) == 2 else 0
    arguments = _estimator_arguments(mechanism, kernel, coupling, m, params)
    pair: List[Optional[NDArray[_np.float64]]] = []
    for name, value in (("x", x), ("y", y)):
        if value is None:
            pair.append(None)
            continue
        array = _real_array(name, value)
        if array.ndim != 1:
            raise ValueError(f"{name}: expected one point, an array of shape (d,), got shape "
                             f"{array.shape}")
        pair.append(_np.ascontiguousarray(array[_np.newaxis, :], dtype=_np.float64))
    dimension = _integer("d", d)
    if dimension > 100000:  # the binding's limit, said before its int conversion could fail
        raise ValueError("d: at most 100000")
    if data is not None:
        if x is not None or y is not None:
            raise ValueError("give either a pair (x, y) or data, not both")
        data = _real_array("data", data)
        if data.ndim != 2 or data.shape[0] == 0:
            raise ValueError(f"data: expected an array of shape (L, d) with L ≥ 1, got shape "
                             f"{data.shape}")
        data = _np.ascontiguousarray(data, dtype=_np.float64)
    core_map = _core._FeatureMap(arguments, dimension, _unsigned("seed", seed),
                                 _unsigned("trial", trial), pair[0], pair[1], data,
                                 None if shift is None else
                                 _np.asarray(shift, dtype=_np.float64).ravel().tolist())
    return FeatureMap(core_map)


# ---- experiments --------------------------------------------------------------------------------

def output_formats() -> List[Dict[str, str]]:
    """The output formats (id, extension, label, description, kind "table" or "figure"), as the
    options of `rfscope-cli run` (--ID FILE). run(output=...) writes the table formats."""
    return list(_core._output_formats())


def _table_format(path: str, format_id: Optional[str]) -> str:
    tables = [f for f in _core._output_formats() if f["kind"] == "table"]
    if format_id is None:
        extension = path.rsplit(".", 1)[-1].lower() if "." in path else ""
        for f in tables:
            if f["extension"] == extension:
                return f["id"]
        raise ValueError(f"output: '{path}' has no table format's extension; name output_format, "
                         f"one of {', '.join(f['id'] for f in tables)}")
    if not any(f["id"] == format_id for f in tables):
        raise ValueError(f"output_format: unknown table format '{format_id}' (one of "
                         f"{', '.join(f['id'] for f in tables)})")
    return format_id


def run(experiment: Optional[str] = None, *, preset: Optional[str] = None,
        output: Optional[str] = None, output_format: Optional[str] = None,
        **params: Any) -> Any:
    """Run an experiment (or a preset, which params then override) and return its table.

    output: a file to write the table to as well, byte for byte as `rfscope-cli run --ID FILE`
    writes it (the run's time aside), in the table format output_format names (an id of
    output_formats(); by default the one of the file's extension).

    params: the experiment's parameters (see experiments()), e.g. d=64, pairs=100,
    mechanisms=["trig", "pos"], sigma_steps=12 (underscores for the ids' hyphens, or
    **{"sigma-steps": 12}). Returns a pandas DataFrame when pandas is installed (metadata in
    .attrs), otherwise a dict of NumPy columns plus "_metadata". The metadata: experiment,
    comments (the CSV's comment lines: experiment, version, every parameter), parameters,
    warnings, labels (column key → label), title, x_column, x_label, y_label, and for a preset its
    claim checked on this result: {"text", "holds", "assertions": [{"text", "holds", "detail"}]}
    (as `rfscope-cli run --preset ID --check`). Raises ValueError with
    `rfscope-cli run`'s message for bad parameters; Ctrl-C cancels.
    """
    arguments: List[str] = []
    if experiment is not None:
        if not isinstance(experiment, str):
            raise TypeError(f"experiment: expected a string id, got {type(experiment).__name__}")
        arguments.append(experiment)
    if preset is not None:
        arguments += ["--preset", str(preset)]
    for key, value in params.items():
        # Parameter ids are kebab-case: sigma_steps= is sigma-steps (a keyword cannot hold '-').
        key = key.replace("_", "-")
        arguments += ["--set", f"{key}={_parameter_text(key, value)}"]
    if output is not None:
        arguments += [f"--{_table_format(str(output), output_format)}", str(output)]
    table = _core._run(arguments)
    metadata = {
        "experiment": table["experiment"],
        "comments": list(table["metadata"]),
        "parameters": _json.loads(table["parameters"]),
        "warnings": list(table["warnings"]),
        "labels": dict(table["labels"]),
        "title": table["title"],
        "x_column": table["x_column"],
        "x_label": table["x_label"],
        "y_label": table["y_label"],
    }
    if "claim" in table:
        metadata["claim"] = dict(table["claim"])
    try:
        import pandas
    except ImportError:
        result = dict(table["columns"])
        result["_metadata"] = metadata
        return result
    frame = pandas.DataFrame(dict(table["columns"]))
    frame.attrs.update(metadata)
    return frame
