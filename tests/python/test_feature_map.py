"""Feature maps from Python: the C++ core's draws, whose K̂ has the closed forms' mean and variance."""

import numpy as np
import pytest

import rfscope

X = np.array([0.3, -0.2, 0.1])
Y = np.array([-0.1, 0.4, 0.2])
Z = 4.42  # two-sided 99.999%: with fixed seeds, a failure means a wrong feature map


def estimates(mechanism, coupling, m, trials, seed, **params):
    """K̂(X, Y) of feature maps drawn from streams 0..trials-1 under seed."""
    out = np.empty(trials)
    for t in range(trials):
        fmap = rfscope.feature_map(mechanism, coupling, m, len(X), seed, trial=t, x=X, y=Y,
                                   **params)
        out[t] = fmap.transform(X[None]) @ fmap.transform_keys(Y[None])[0]
    return out


@pytest.mark.parametrize("mechanism,coupling,m", [
    ("pos", "iid", 4),
    ("pos", "simrf", 3),
    ("trig", "orf", 3),
    ("oprf", "iid", 2),
    ("hybrid-angular", "iid", 2),
])
def test_estimates_have_the_closed_forms_mean_and_variance(mechanism, coupling, m):
    k = estimates(mechanism, coupling, m, 4000, 11)
    exact = rfscope.variance(mechanism, X, Y, coupling=coupling, m=m)
    n = len(k)
    mean, var = k.mean(), k.var(ddof=1)
    assert abs(mean - exact.kernel_value) < Z * np.sqrt(var / n)
    fourth = np.mean((k - mean) ** 4)
    se_var = np.sqrt(max(fourth - var ** 2, 0.0) / n)
    assert abs(var - exact.variance) < Z * se_var, (var, exact.variance, se_var)


@pytest.mark.parametrize("mechanism,coupling", [("pos", "orf"), ("oprf", "iid"), ("trig", "iid"),
                                                ("geom", "iid")])
def test_feature_maps_are_the_monte_carlo_trials_of_the_same_seed(mechanism, coupling):
    # The full Monte Carlo path draws trial t from the stream the feature map of trial t uses.
    k = estimates(mechanism, coupling, 3, 256, 5)
    mc = rfscope.monte_carlo(mechanism, X, Y, coupling=coupling, m=3, trials=256, seed=5,
                             path="full", backend="cpu")
    assert mc.mean == pytest.approx(k.mean(), rel=1e-12)
    assert mc.variance == pytest.approx(k.var(ddof=1), rel=1e-9)


def test_same_seed_same_features_and_dtypes():
    data = np.random.default_rng(3).standard_normal((50, 3)) * 0.5
    a = rfscope.feature_map("oprf", "simrf", 8, 3, 42)
    b = rfscope.feature_map("oprf", "simrf", 8, 3, 42)
    c = rfscope.feature_map("oprf", "simrf", 8, 3, 43)
    fa = a.transform(data)
    assert fa.shape == (50, a.width) and a.width == 8 and fa.dtype == np.float64
    np.testing.assert_array_equal(fa, b.transform(data))
    assert not np.array_equal(fa, c.transform(data))
    f32 = a.transform(data.astype(np.float32), dtype=np.float32)
    assert f32.dtype == np.float32
    # float32 is computed in single precision: within its rounding of the float64 features
    # (feature_map.h: about d·2^-24·Σ|ω_l x_l| of the row's largest feature).
    f64 = a.transform(data.astype(np.float32))
    assert np.all(np.abs(f32 - f64) <= 1e-5 * np.abs(f64).max(axis=1, keepdims=True))
    np.testing.assert_array_equal(f32, a.transform(data.astype(np.float32), dtype=np.float32))
    np.testing.assert_allclose(a.kernel(data, data), fa @ a.transform_keys(data).T, rtol=1e-12)
    values, log_scale = a.transform_scaled(data)
    np.testing.assert_allclose(values * np.exp(log_scale)[:, None], fa, rtol=1e-15)
    trig = rfscope.feature_map("trig", "orf", 4, 3, 1)
    assert trig.width == 8 and trig.transform(data).shape == (50, 8)
    assert "A" in a.parameters


def test_a_simplex_block_in_one_dimension_is_refused_not_nan():
    # A simplex block in d = 1 has no directions (they divide by d - 1): it gave NaN features.
    with pytest.raises(ValueError, match=r"simrf needs d >= 2"):
        rfscope.feature_map("pos", "simrf", 4, 1, 1)


def test_bad_seeds_and_sizes_are_value_errors_not_binding_errors():
    # seed=-1 gave pybind11's "incompatible constructor arguments"; orf at d = 100000 raised
    # MemoryError (a 100000 × 100000 block).
    with pytest.raises(ValueError, match=r"seed: must be between 0 and 2\*\*64 - 1, got -1"):
        rfscope.feature_map("pos", "iid", 4, 3, -1)
    with pytest.raises(ValueError, match=r"d: orf draws d × d blocks: at most 4096"):
        rfscope.feature_map("pos", "orf", 4, 100000, 1)
    with pytest.raises(ValueError, match=r"d: at most 100000"):
        rfscope.feature_map("pos", "iid", 4, 10 ** 12, 1)
