"""rfscope.sklearn.RandomFeatures: a scikit-learn transformer — scikit-learn's own estimator
checks for each mechanism family, the bandwidth, data-driven parameters, pickling, pipelines."""

import pickle
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import RidgeClassifier
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import check_estimator

import rfscope
from rfscope.sklearn import RandomFeatures

FAMILIES = [
    ("trig", "iid"),         # signed, cos/sin pairs
    ("trig-phase", "orf"),   # random phases, orthogonal frequencies
    ("pos", "simrf"),        # positive, simplex-coupled
    ("pos-hyp", "iid"),      # hyperbolic pairs
    ("oprf", "orf"),         # data-driven A*
    ("gerf", "iid"),         # data-driven complex optimum
    ("sderf", "iid"),        # data-driven dense matrices
    ("geom-plus", "iid"),    # discrete, shifted to positive inputs
    ("maclaurin", "iid"),    # products of a random number of Rademacher projections
    ("trig", "qmc-sobol"),   # quasi-Monte Carlo frequencies
]


@pytest.mark.parametrize("mechanism,coupling", FAMILIES)
def test_passes_scikit_learns_estimator_checks(mechanism, coupling):
    check_estimator(RandomFeatures(mechanism, coupling, n_components=16, gamma=0.1,
                                   random_state=0))


def exact_gram(X, Y, gamma):
    squared = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-gamma * squared)


def test_gamma_is_the_bandwidth_of_exp_minus_gamma_distance_squared():
    # The mean of the unbiased estimates over 400 draws approaches exp(-gamma |x - y|²): the
    # standard error of the mean is ~0.02 here, the check 5 of them.
    rng = np.random.default_rng(3)
    X = rng.standard_normal((6, 5))
    for gamma in (0.05, 0.5):
        estimates = []
        for seed in range(400):
            features = RandomFeatures("trig", n_components=8, gamma=gamma,
                                      random_state=seed).fit_transform(X)
            estimates.append(features @ features.T)
        mean = np.mean(estimates, axis=0)
        spread = np.std(estimates, axis=0) / np.sqrt(len(estimates))
        assert np.all(np.abs(mean - exact_gram(X, X, gamma)) <= 5 * spread + 1e-12)


def test_fit_chooses_data_driven_parameters_from_the_data():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((200, 8))
    small = RandomFeatures("oprf", n_components=4, gamma=0.01, random_state=0).fit(X)
    large = RandomFeatures("oprf", n_components=4, gamma=2.0, random_state=0).fit(X)
    a_small = small.feature_map_.parameters["A"]
    a_large = large.feature_map_.parameters["A"]
    # OPRF's A* is 0 (PosRF) only at zero-norm data; larger inputs pull it further below 0.
    assert a_large < a_small < 0
    # Given parameters take precedence over the data's choice.
    fixed = RandomFeatures("oprf", n_components=4, random_state=0,
                           mechanism_params={"A": -0.25}).fit(X)
    assert fixed.feature_map_.parameters["A"] == -0.25


def test_same_random_state_same_features_and_float32_stays_float32():
    X = np.random.default_rng(2).standard_normal((50, 4))
    a = RandomFeatures("pos", "orf", n_components=32, random_state=7).fit_transform(X)
    b = RandomFeatures("pos", "orf", n_components=32, random_state=7).fit_transform(X)
    c = RandomFeatures("pos", "orf", n_components=32, random_state=8).fit_transform(X)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    generator = RandomFeatures("pos", n_components=4, random_state=np.random.RandomState(7))
    assert generator.fit_transform(X).shape == (50, 4)
    single = RandomFeatures("trig", n_components=16, random_state=0).fit(X.astype(np.float32))
    out = single.transform(X.astype(np.float32))
    assert out.dtype == np.float32 and out.shape == (50, single.n_features_out_) == (50, 32)


def test_pickled_and_cloned_transformers_give_the_same_features():
    X = np.abs(np.random.default_rng(4).standard_normal((120, 6))) - 0.5
    for mechanism in ("oprf", "sderf", "pois-plus"):
        fitted = RandomFeatures(mechanism, n_components=16, gamma=0.2, random_state=3).fit(X)
        restored = pickle.loads(pickle.dumps(fitted))
        np.testing.assert_array_equal(fitted.transform(X), restored.transform(X))
        refitted = clone(fitted).fit(X)
        np.testing.assert_array_equal(fitted.transform(X), refitted.transform(X))


def test_bad_parameters_are_refused_at_fit_with_their_name():
    X = np.zeros((4, 2))
    for kwargs, name in (({"n_components": 0}, "n_components"), ({"gamma": -1.0}, "gamma"),
                         ({"mechanism": "nope"}, "mechanism"), ({"kernel": "laplace"}, "kernel")):
        with pytest.raises(ValueError, match=name):
            RandomFeatures(**kwargs).fit(X)


def test_a_pipeline_classifies_a_shipped_uci_set_and_a_grid_search_tunes_gamma():
    # banknote authentication (resources/uci, 1372 × 4): standardised, 2/3 for training.
    path = Path(__file__).resolve().parents[2] / "resources" / "uci" / "banknote.txt"
    data = np.loadtxt(path, delimiter=",")
    X, y = data[:, :4], data[:, 4].astype(int)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    order = np.random.default_rng(0).permutation(len(y))
    train, test = order[:900], order[900:]
    linear = RidgeClassifier().fit(X[train], y[train]).score(X[test], y[test])
    model = make_pipeline(RandomFeatures("oprf", "orf", n_components=256, gamma=0.5,
                                         random_state=0), RidgeClassifier())
    accuracy = model.fit(X[train], y[train]).score(X[test], y[test])
    assert linear < 0.98 <= accuracy, (linear, accuracy)
    search = GridSearchCV(model, {"randomfeatures__gamma": [0.001, 0.5]}, cv=3)
    search.fit(X[train], y[train])
    assert search.best_params_["randomfeatures__gamma"] == 0.5
