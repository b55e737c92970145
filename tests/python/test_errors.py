"""Bad input raises ValueError with the command line's message; dtypes and shapes are named."""

import re

import numpy as np
import pytest

import rfscope
from conftest import cli_error


def python_names(message):
    return re.sub(r"--([a-z][a-z0-9-]*)", lambda m: m.group(1).replace("-", "_"), message)

X = np.array([0.1, 0.2, 0.3])
Y = np.array([0.3, -0.1, 0.5])
XY = ["--x", "0.1,0.2,0.3", "--y", "0.3,-0.1,0.5"]


@pytest.mark.parametrize("kwargs,cli_arguments", [
    ({"mechanism": "nope"}, ["--mechanism", "nope"]),
    ({"mechanism": "pos", "kernel": "laplace"}, ["--mechanism", "pos", "--kernel", "laplace"]),
    ({"mechanism": "pos", "coupling": "xyz"}, ["--mechanism", "pos", "--coupling", "xyz"]),
    ({"mechanism": "pos", "m": 0}, ["--mechanism", "pos", "--m", "0"]),
    ({"mechanism": "pos", "m": 100001}, ["--mechanism", "pos", "--m", "100001"]),
    ({"mechanism": "pos", "sigma": 2.0}, ["--mechanism", "pos", "--param", "sigma=2.0"]),
    ({"mechanism": "oprf", "A": 0.5}, ["--mechanism", "oprf", "--param", "A=0.5"]),
])
def test_bad_estimator_gives_the_cli_message(kwargs, cli_arguments):
    # The command line's message in Python's names: "m: …" for "--m: …".
    expected = python_names(cli_error("analytic", *cli_arguments, *XY))
    mechanism = kwargs.pop("mechanism")
    with pytest.raises(ValueError) as raised:
        rfscope.variance(mechanism, X, Y, **kwargs)
    assert str(raised.value) == expected
    with pytest.raises(ValueError) as raised:
        rfscope.monte_carlo(mechanism, X, Y, trials=1000, **kwargs)
    assert str(raised.value) == expected


def test_bad_monte_carlo_settings_give_the_cli_message():
    expected = python_names(cli_error("mc", "--mechanism", "pos", *XY, "--trials", "10"))
    with pytest.raises(ValueError) as raised:
        rfscope.monte_carlo("pos", X, Y, trials=10)
    assert str(raised.value) == expected
    with pytest.raises(ValueError, match=r"^path\b"):
        rfscope.monte_carlo("pos", X, Y, trials=1000, path="slow")


def test_values_out_of_range_name_the_row_and_entry():
    xs = np.zeros((3, 3))
    xs[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"^x \(row 2\): entry 2, nan, is not a finite number$"):
        rfscope.variance("pos", xs, np.zeros((3, 3)))
    ys = np.zeros((2, 3))
    ys[1, 0] = 1e61
    with pytest.raises(ValueError, match=r"^y \(row 1\): entry 1, 1e\+61, is out of range"):
        rfscope.variance("pos", np.zeros((2, 3)), ys)


def test_dtype_and_shape_errors_are_clear():
    with pytest.raises(TypeError, match="x: expected an array of real numbers .* complex128"):
        rfscope.variance("pos", X.astype(complex), Y)
    with pytest.raises(TypeError, match="dtype <U1"):
        rfscope.variance("pos", X, np.array(["a", "b", "c"]))
    with pytest.raises(ValueError, match=r"x: expected an array of shape \(d,\) or \(L, d\), got "
                                         r"shape \(2, 2, 3\)"):
        rfscope.variance("pos", np.zeros((2, 2, 3)), Y)
    with pytest.raises(ValueError, match="x has 3 entries per point but y has 4"):
        rfscope.variance("pos", X, np.zeros(4))
    with pytest.raises(ValueError, match="x has 2 points but y has 3"):
        rfscope.variance("pos", np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="at least one point"):
        rfscope.variance("pos", np.zeros((0, 3)), np.zeros((0, 3)))
    with pytest.raises(TypeError, match="m: expected an integer, got float"):
        rfscope.variance("pos", X, Y, m=2.5)
    with pytest.raises(TypeError, match="parameter 'A': expected a number"):
        rfscope.variance("oprf", X, Y, A=object())


def test_run_and_feature_map_errors():
    expected = cli_error("run", "variance-vs-sigma", "--set", "d=0")
    with pytest.raises(ValueError) as raised:
        rfscope.run("variance-vs-sigma", d=0)
    assert str(raised.value) == expected
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        rfscope.run("nope")
    fmap = rfscope.feature_map("pos", "iid", 4, 3, 1)
    with pytest.raises(ValueError, match="X has 2 columns but the feature map has d = 3"):
        fmap.transform(np.zeros((5, 2)))
    with pytest.raises(ValueError, match=r"X: expected an array of shape \(L, d\)"):
        fmap.transform(np.zeros(3))
    with pytest.raises(TypeError, match="dtype: float64 or float32, got int32"):
        fmap.transform(np.zeros((1, 3)), dtype=np.int32)
    with pytest.raises(ValueError, match="d: the dimension must be at least 1"):
        rfscope.feature_map("pos", "iid", 4, 0, 1)
    # M has no silent default; d comes from data where it is given.
    with pytest.raises(TypeError, match="needs m, the number of frequencies M"):
        rfscope.feature_map("pos", "iid", d=3)
    with pytest.raises(TypeError, match="needs d, the input dimension"):
        rfscope.feature_map("pos", "iid", m=4)
    assert rfscope.feature_map("oprf", m=4, data=np.ones((6, 5))).d == 5
