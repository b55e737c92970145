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

    timer = threading.Timer(DELAY, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()


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


def test_a_completed_call_is_not_disturbed():
    assert rfscope.variance("pos", np.ones(2), np.ones(2)).log_variance > -np.inf
