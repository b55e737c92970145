"""Ctrl-C (SIGINT → KeyboardInterrupt) stops a running computation within 0.3 s."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import rfscope

DELAY = 0.4  # long enough for the computation to be well under way


def interrupted_after(call):
    """Seconds from SIGINT to the KeyboardInterrupt that call raises."""
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    # Python leaves SIGINT ignored when it starts with it ignored (a shell's background job):
    # Ctrl-C's handler, as an interactive session has it, for the length of the call.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(DELAY, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_monte_carlo_stops():
    x = np.full(64, 0.1)
    assert interrupted_after(lambda: rfscope.monte_carlo(
        "pos", x, -x, coupling="orf", m=64, trials=10**9, threads=1, backend="cpu")) < 0.3


def test_experiment_stops():
    assert interrupted_after(lambda: rfscope.run(
        "variance-vs-sigma", d=64, pairs=1000, method="monte-carlo", trials=10**6)) < 0.3


def test_vectorised_variance_stops():
    rng = np.random.default_rng(1)
    xs, ys = 0.1 * rng.standard_normal((2, 200000, 64))
    assert interrupted_after(lambda: rfscope.conformity("pos", xs, ys, coupling="simrf",
                                                        m=64)) < 0.3


def test_feature_maps_stop():
    rng = np.random.default_rng(2)
    # Seconds of work each (100000 × 2048 features; an 8000 × 8000 kernel of 2048 features), in
    # at most 1.6 GB of output, of which an interrupted call touches little.
    X = rng.standard_normal((100000, 64))
    fmap = rfscope.feature_map("trig", "iid", m=1024, d=64, seed=1)
    assert interrupted_after(lambda: fmap.transform(X)) < 0.3
    small = X[:8000]
    assert interrupted_after(lambda: fmap.kernel(small, small)) < 0.3


def test_blocks_give_the_same_features_as_rows_one_by_one():
    X = np.random.default_rng(3).standard_normal((2500, 8))  # three blocks of rows
    fmap = rfscope.feature_map("oprf", "orf", m=16, d=8, seed=2)
    whole = fmap.transform(X)
    for i in (0, 1023, 1024, 2499):
        np.testing.assert_array_equal(whole[i], fmap.transform(X[i:i + 1])[0])
    # The kernel by blocks of query rows: the features' products (summed in another order by
    # the matrix product of another size, so equal to rounding).
    np.testing.assert_allclose(fmap.kernel(X, X[:10]), whole @ fmap.transform_keys(X[:10]).T,
                               rtol=1e-12, atol=0)


def test_a_completed_call_is_not_disturbed():
    assert rfscope.variance("pos", np.ones(2), np.ones(2)).log_variance > -np.inf
