"""Closed forms from Python equal `rfscope-cli analytic`'s JSON to the last digit."""

import numpy as np
import pytest

import rfscope
from conftest import cli, cli_json, number_list

RNG = np.random.default_rng(20261123)
D = 5
PAIRS = 0.4 * RNG.standard_normal((2, 4, D))

# (mechanism, kernel, coupling, m, params): a sample across the mechanisms, both kernels, the
# coupled closed forms and explicit parameters.
CASES = [
    ("trig", "gaussian", "iid", 1, {}),
    ("trig", "gaussian", "orf", 4, {}),
    ("pos", "softmax", "iid", 16, {}),
    ("pos", "gaussian", "orf", 3, {}),
    ("pos", "gaussian", "simrf", 5, {}),
    ("pos-hyp", "gaussian", "iid", 2, {}),
    ("oprf", "softmax", "iid", 8, {}),
    ("oprf", "gaussian", "iid", 1, {"A": -0.1}),
    ("gerf", "gaussian", "iid", 1, {}),
    ("pois", "gaussian", "iid", 2, {}),
    ("geom-plus", "gaussian", "iid", 1, {"epsilon": 0.25}),
    ("hybrid-angular", "softmax", "iid", 4, {}),
    ("trig", "gaussian", "orf-fixed-norm", 7, {}),
    ("pos", "softmax", "orf-fixed-norm", 4, {}),
    ("maclaurin", "softmax", "iid", 4, {}),
    ("maclaurin", "gaussian", "iid", 1, {"degrees": "geometric"}),
]


def cli_analytic(mechanism, kernel, coupling, m, params, x, y):
    arguments = ["analytic", "--mechanism", mechanism, "--kernel", kernel, "--coupling",
                 coupling, "--m", str(m), "--x", number_list(x), "--y", number_list(y)]
    for key, value in params.items():
        arguments += ["--param", f"{key}={value if isinstance(value, str) else repr(value)}"]
    return cli_json(*arguments)


@pytest.mark.parametrize("mechanism,kernel,coupling,m,params", CASES)
def test_vectorised_variance_equals_the_cli_at_every_pair(mechanism, kernel, coupling, m, params):
    xs, ys = PAIRS
    result = rfscope.variance(mechanism, xs, ys, kernel=kernel, coupling=coupling, m=m, **params)
    assert result.log_variance.shape == (len(xs),)
    for i, (x, y) in enumerate(zip(xs, ys)):
        expected = cli_analytic(mechanism, kernel, coupling, m, params, x, y)
        assert result.log_variance[i] == expected["log_variance"]
        assert result.log_kernel_value[i] == expected["log_kernel_value"]
        if expected["variance"] is not None:
            assert result.variance[i] == expected["variance"]
        assert result.kernel_value[i] == expected["kernel_value"]
        if "log_conformity" in expected:
            conformity = rfscope.conformity(mechanism, x, y, kernel=kernel, coupling=coupling,
                                            m=m, **params)
            assert conformity.log_conformity == expected["log_conformity"]
            assert conformity.conformity == expected["conformity"]
        bias = rfscope.bias(mechanism, x, y, kernel=kernel, coupling=coupling, m=m, **params)
        if "bias" in expected:  # a biased estimator: its bias and MSE beside the variance
            assert bias.bias == expected["bias"]
            assert bias.log_mse == expected["log_mse"]
            assert bias.mse == pytest.approx(expected["variance"] + expected["bias"] ** 2,
                                             rel=1e-12)
        else:
            assert bias.bias == 0 and bias.log_mse == expected["log_variance"]


def test_one_pair_gives_floats_and_the_pair_broadcasts():
    x, y = PAIRS[0][0], PAIRS[1][0]
    one = rfscope.variance("oprf", x, y, m=4)
    assert isinstance(one.log_variance, float)
    many = rfscope.variance("oprf", x, PAIRS[1], m=4)  # x paired with every row
    assert many.log_variance[0] == one.log_variance
    assert many.log_variance.shape == (4,)
    assert rfscope.variance("oprf", x.astype(np.float32), y, m=4).log_variance == \
        rfscope.variance("oprf", x.astype(np.float32).astype(np.float64), y, m=4).log_variance


def test_no_closed_form_raises_the_dedicated_exception_with_the_cli_reason():
    x, y = PAIRS[0][0], PAIRS[1][0]
    code, _, err = cli("analytic", "--mechanism", "oprf", "--coupling", "orf", "--m", "2",
                       "--x", number_list(x), "--y", number_list(y))
    assert code == 3
    with pytest.raises(rfscope.NoClosedFormError) as raised:
        rfscope.variance("oprf", x, y, coupling="orf", m=2)
    assert str(raised.value) == err.strip().removeprefix("rfscope-cli: ")
    assert isinstance(raised.value, rfscope.NotAvailableError)
    with pytest.raises(rfscope.NoClosedFormError, match="RF-conformity"):
        rfscope.conformity("trig", x, y)


def test_catalogue_matches_the_cli_list():
    catalogue = cli_json("list", "--compact")
    assert rfscope.mechanisms() == catalogue["mechanisms"]
    assert rfscope.couplings() == catalogue["couplings"]
    assert rfscope.experiments() == catalogue["experiments"]
    assert {m["id"] for m in rfscope.mechanisms()} >= {"trig", "pos", "oprf", "hybrid-gaussian"}


def test_help_shows_the_documentation():
    assert "Exact variance" in rfscope.variance.__doc__
    assert "m: int" in str(__import__("inspect").signature(rfscope.variance)) or \
        "m: 'int'" in str(__import__("inspect").signature(rfscope.variance))


def test_the_closed_forms_the_catalogue_names_are_those_that_evaluate_and_the_docstring_says_so():
    x, y = np.full(4, 0.1), np.full(4, -0.2)
    for mechanism in rfscope.mechanisms():
        for coupling in ("iid", "orf", "simrf"):
            listed = coupling in mechanism["closed_forms"]
            if listed and coupling != "iid":
                assert f"'{mechanism['id']}' under" in rfscope.variance.__doc__
            try:
                rfscope.variance(mechanism["id"], x, y, coupling=coupling, m=4)
                evaluated = True
            except rfscope.NoClosedFormError:
                evaluated = False
            assert evaluated == listed, (mechanism["id"], coupling)


@pytest.mark.parametrize("mechanism,coupling", [("oprf", "iid"), ("pos", "simrf"), ("trig", "orf")])
def test_all_pairs_is_every_row_of_x_with_every_row_of_y(mechanism, coupling, monkeypatch):
    xs = 0.3 * RNG.standard_normal((7, D))
    ys = 0.3 * RNG.standard_normal((5, D))
    # Blocks of 2 rows of x per call of the core, so that the blocks' seams are crossed too.
    monkeypatch.setattr(rfscope, "_ALL_PAIRS_BLOCK", 2 * len(ys))
    grid = rfscope.variance(mechanism, xs, ys, coupling=coupling, m=4, all_pairs=True)
    rho = (rfscope.conformity(mechanism, xs, ys, coupling=coupling, m=4, all_pairs=True)
           if mechanism == "pos" else None)
    for name in ("variance", "log_variance", "kernel_value", "log_kernel_value"):
        assert getattr(grid, name).shape == (7, 5)
    for i in range(7):
        row = rfscope.variance(mechanism, xs[i], ys, coupling=coupling, m=4)
        np.testing.assert_array_equal(grid.log_variance[i], row.log_variance)
        np.testing.assert_array_equal(grid.kernel_value[i], row.kernel_value)
        if rho is not None:
            expected = rfscope.conformity(mechanism, xs[i], ys, coupling=coupling, m=4)
            np.testing.assert_array_equal(rho.log_conformity[i], expected.log_conformity)
    # Not the row-by-row pairing: entry [i, j] is (x[i], y[j]).
    assert grid.log_variance[1, 0] == rfscope.variance(mechanism, xs[1], ys[0], coupling=coupling,
                                                        m=4).log_variance
    with pytest.raises(ValueError, match="x has 5 entries per point but y has 4"):
        rfscope.variance(mechanism, xs, ys[:, :4], m=4, all_pairs=True)
