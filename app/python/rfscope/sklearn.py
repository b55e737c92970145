"""RFScope's feature maps as a scikit-learn transformer.

``RandomFeatures`` follows ``sklearn.kernel_approximation.RBFSampler``'s conventions: ``gamma`` is
the bandwidth of the Gaussian kernel exp(-gamma ‖x - y‖²), ``random_state`` an int, a
``RandomState``/``Generator`` or None, and ``fit(X)`` learns what the map needs from X — its
dimension and, for the mechanisms that have them, the data-driven parameters every pair of X shares
(OPRF's A*, GERF's optimum, PoisRF's λ*, GeomRF's p*, SDERF/ADERF's matrices: CRT §3, from X's
statistics). It can be cloned, pickled, and used in pipelines and grid searches::

    from sklearn.pipeline import make_pipeline
    from sklearn.linear_model import RidgeClassifier
    from rfscope.sklearn import RandomFeatures

    model = make_pipeline(RandomFeatures("oprf", "orf", n_components=256, gamma=0.1),
                          RidgeClassifier())

n_components is the number of random frequencies M; the output has ``n_features_out_`` columns
(M times the features per frequency: 1 for pos and oprf, 2 for trig's cos/sin pairs, …), and
transform(X) @ transform(Y).T estimates the kernel matrix without bias (the 1/M included).
"""

from __future__ import annotations

import numbers
from typing import Any, Dict, Optional

import numpy as _np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from . import feature_map as _feature_map
from . import kernels as _kernels
from . import mechanisms as _mechanisms

__all__ = ["RandomFeatures"]

# Rows of X whose statistics choose the data-driven parameters (as the C++ core averages them).
_STATISTICS_ROWS = 2000


class RandomFeatures(TransformerMixin, BaseEstimator):
    """Random features of an RFScope mechanism for the Gaussian (or softmax) kernel.

    Parameters
    ----------
    mechanism : str, default="trig"
        A mechanism id of ``rfscope.mechanisms()``: "trig", "trig-phase", "pos", "pos-hyp",
        "oprf", "gerf", "sderf", "aderf", "saderf", "pois", "geom", "pois-plus", "geom-plus",
        "maclaurin", ….
    coupling : str, default="iid"
        How the frequencies are drawn: "iid", "orf", "simrf", "qmc-sobol", "qmc-halton", … (those
        the mechanism's feature map supports).
    n_components : int, default=100
        The number of random frequencies M.
    gamma : float, default=1.0
        The kernel exp(-gamma ‖x - y‖²) (softmax: exp(2 gamma xᵀy)); RFScope's kernels are at
        gamma = 1/2, so inputs are scaled by √(2 gamma).
    kernel : {"gaussian", "softmax"}, default="gaussian"
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the draw: the same value gives the same features.
    mechanism_params : dict or None, default=None
        The mechanism's own parameters (see ``rfscope.mechanisms()``), overriding the data-driven
        choice.

    Attributes
    ----------
    feature_map_ : rfscope.FeatureMap
    n_features_in_ : int
    n_features_out_ : int
    seed_ : int
        The RFScope seed drawn from random_state.
    """

    def __init__(self, mechanism: str = "trig", coupling: str = "iid", n_components: int = 100,
                 gamma: float = 1.0, kernel: str = "gaussian", random_state: Any = None,
                 mechanism_params: Optional[Dict[str, Any]] = None):
        self.mechanism = mechanism
        self.coupling = coupling
        self.n_components = n_components
        self.gamma = gamma
        self.kernel = kernel
        self.random_state = random_state
        self.mechanism_params = mechanism_params

    def _check_parameters(self) -> None:
        if self.mechanism not in {m["id"] for m in _mechanisms()}:
            raise ValueError(f"mechanism: unknown mechanism '{self.mechanism}'")
        if self.kernel not in _kernels():
            raise ValueError(f"kernel: unknown kernel '{self.kernel}'")
        if (not isinstance(self.n_components, numbers.Integral)
                or isinstance(self.n_components, bool) or self.n_components < 1):
            raise ValueError(f"n_components: a positive integer, got {self.n_components!r}")
        if (not isinstance(self.gamma, numbers.Real) or isinstance(self.gamma, bool)
                or not self.gamma > 0 or not _np.isfinite(self.gamma)):
            raise ValueError(f"gamma: a positive number, got {self.gamma!r}")
        if self.mechanism_params is not None and not isinstance(self.mechanism_params, dict):
            raise ValueError("mechanism_params: a dict of the mechanism's parameters, or None")

    def _scale(self) -> float:
        return float(_np.sqrt(2.0 * self.gamma))

    def _draw(self, statistics_rows: _np.ndarray, shift: Optional[_np.ndarray]) -> Any:
        return _feature_map(self.mechanism, self.coupling, int(self.n_components),
                            statistics_rows.shape[1], self.seed_, kernel=self.kernel,
                            data=statistics_rows, shift=shift, **(self.mechanism_params or {}))

    def fit(self, X: Any, y: Any = None) -> "RandomFeatures":
        """Learns the input dimension and the data-driven parameters from X (n_samples × d)."""
        self._check_parameters()
        X = self._validate_data(X, dtype=[_np.float64, _np.float32])
        rng = check_random_state(self.random_state)
        self.seed_ = int(rng.randint(_np.iinfo(_np.int32).max))
        scaled = _np.asarray(X, dtype=_np.float64) * self._scale()
        self._statistics_rows = _np.ascontiguousarray(scaled[:_STATISTICS_ROWS])
        try:
            self.feature_map_ = self._draw(scaled, None)
        except ValueError as error:  # e.g. a coupling that needs more dimensions
            raise ValueError(f"{error} (X has n_features = {X.shape[1]})") from error
        shift = self.feature_map_.shift
        self._shift = shift if shift.size else None
        self.n_features_out_ = int(self.feature_map_.width)
        return self

    def transform(self, X: Any) -> _np.ndarray:
        """The features of the rows of X: an n_samples × n_features_out_ array of X's float
        dtype (float32 stays float32)."""
        check_is_fitted(self, "feature_map_")
        X = self._validate_data(X, dtype=[_np.float64, _np.float32], reset=False)
        return self.feature_map_.transform(_np.asarray(X, dtype=_np.float64) * self._scale(),
                                           dtype=X.dtype)

    def get_feature_names_out(self, input_features: Any = None) -> _np.ndarray:
        check_is_fitted(self, "feature_map_")
        prefix = self.mechanism.replace("-", "_")
        return _np.asarray([f"{prefix}{i}" for i in range(self.n_features_out_)], dtype=object)

    # The drawn map is a C++ object: a pickle keeps what redraws it exactly (the seed, the rows
    # whose statistics chose the parameters, the shift).
    def __getstate__(self) -> Dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("feature_map_", None)
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "seed_" in state:
            self.feature_map_ = self._draw(self._statistics_rows, self._shift)

    def _more_tags(self) -> Dict[str, Any]:
        return {"preserves_dtype": [_np.float64, _np.float32], "stateless": False}
