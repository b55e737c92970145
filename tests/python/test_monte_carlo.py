"""Monte Carlo from Python: a typed MonteCarlo result holding `rfscope-cli mc`'s numbers, the same
numbers for the same seed."""

import numpy as np
import pytest

import rfscope
from conftest import cli_json, number_list

X = np.array([0.2, -0.1, 0.4, 0.05])
Y = np.array([0.1, 0.3, -0.2, 0.25])
TIMING = {"seconds", "features_per_second"}


@pytest.mark.parametrize("mechanism,coupling,m,path", [
    ("pos", "iid", 4, "fast"),
    ("oprf", "simrf", 4, "fast"),
    ("trig", "orf", 3, "full"),
    ("pois", "iid", 2, "fast"),
])
def test_monte_carlo_equals_the_cli(mechanism, coupling, m, path):
    expected = cli_json("mc", "--mechanism", mechanism, "--coupling", coupling, "--m", str(m),
                        "--x", number_list(X), "--y", number_list(Y), "--trials", "20000",
                        "--seed", "7", "--path", path, "--backend", "cpu")
    result = rfscope.monte_carlo(mechanism, X, Y, coupling=coupling, m=m, trials=20000, seed=7,
                                 threads=2, path=path, backend="cpu")
    as_dict = result.to_dict()
    for key in TIMING:
        assert as_dict.pop(key) > 0 and getattr(result, key) > 0
        expected.pop(key)
    assert as_dict == expected
    # The typed fields hold the same numbers.
    assert isinstance(result, rfscope.MonteCarlo)
    assert (result.mean, result.variance, result.log_variance) == \
        (expected["mean"], expected["variance"], expected["log_variance"])
    assert result.ci95 == tuple(expected["ci95"]) and result.log_ci95 == tuple(expected["log_ci95"])
    assert result.heavy_tail is expected["heavy_tail"]
    assert result.histogram.counts.dtype == np.int64
    assert result.histogram.counts.tolist() == expected["histogram"]["counts"]
    assert result.histogram.edges.tolist() == expected["histogram"]["edges"]
    assert result.histogram.counts.sum() == result.histogram.samples <= 20000
    assert (result.mechanism, result.coupling, result.m, result.d, result.trials) == \
        (mechanism, coupling, m, 4, 20000)


def test_analytic_value_or_its_reason_comes_with_the_estimate():
    result = rfscope.monte_carlo("oprf", X, Y, coupling="orf", m=2, trials=1000, backend="cpu")
    assert result.analytic is None and "orf" in result.analytic_note
    exact = rfscope.variance("pos", X, Y, m=3)
    result = rfscope.monte_carlo("pos", X, Y, m=3, trials=1000, quantiles=[0.1, 0.9])
    assert result.analytic_note is None
    assert result.analytic == rfscope.Analytic(exact.variance, exact.log_variance)
    # Levels as floats, the quantiles ordered like them.
    assert set(result.quantiles) == {0.1, 0.9}
    assert result.quantiles[0.1] < result.mean < result.quantiles[0.9]


def test_numbers_are_floats_where_the_cli_writes_minus_inf_as_a_string():
    # PosRF at x = -y: every estimate equals the kernel, the variance is exactly 0.
    x = np.array([0.1, -0.2, 0.3])
    arguments = ("--mechanism", "pos", "--x", number_list(x), "--y", number_list(-x),
                 "--trials", "256", "--seed", "3")
    expected = cli_json("mc", *arguments)
    assert expected["log_variance"] == "-inf"
    result = rfscope.monte_carlo("pos", x, -x, trials=256, seed=3)
    assert result.variance == 0.0
    assert isinstance(result.log_variance, float) and result.log_variance == -np.inf
    assert np.isnan(result.variance_relative_stderr)  # the CLI's null: no relative error of 0
    # Otherwise the CLI's object: every "-inf" string (log_ci95, the analytic log) a float.
    def as_numbers(value):
        if isinstance(value, dict):
            return {k: as_numbers(v) for k, v in value.items()}
        if isinstance(value, list):
            return [as_numbers(v) for v in value]
        return float(value) if value in ("-inf", "inf", "nan") else value
    timing = {"seconds", "features_per_second"}
    assert {k: v for k, v in result.to_dict().items() if k not in timing} == \
        {k: v for k, v in as_numbers(expected).items() if k not in timing}
