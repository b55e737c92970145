#!/usr/bin/python3
"""FeatureMap.transform against NumPy with OpenBLAS, float32 and float64, in one run on one core.

usage: PYTHONPATH=build/release/app/python \\
           tests/benchmarks/python/compare_feature_maps_with_numpy.py [--rows L] [--repeat R]
Maps X (L × 64, default L = 10000) to M = 1024 frequencies with rfscope's feature maps and with
what a NumPy user writes for the same features (W = ωᵀ, d × M):
  trig-phase  cos(ωᵀx + b)            np.cos(X @ W + b)
  pos, oprf   exp(ωᵀx + c_ω)          np.exp(X @ W + c)
  trig        (cos ωᵀx, sin ωᵀx)      np.cos(X @ W, out=F[:, :M]); np.sin(…, out=F[:, M:])
Prints each side's CPU time (process time, best of R = 5 repeats; the process pinned to one core,
OpenBLAS to one thread) and NumPy's time over rfscope's: the speed-up (> 1: rfscope is faster).
NumPy must use OpenBLAS (Debian: libopenblas0-pthread; see packaging/install-deps.sh): the script
says which BLAS it found.
"""

import os

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before NumPy loads OpenBLAS
os.environ["OMP_NUM_THREADS"] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import rfscope  # noqa: E402

D, M = 64, 1024
MECHANISMS = ("trig-phase", "pos", "oprf", "trig")


def best_cpu_time(call, repeat):
    times = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return min(times)


def blas_name():
    try:
        from threadpoolctl import threadpool_info
        for pool in threadpool_info():
            if pool.get("user_api") == "blas":
                return f"{pool.get('internal_api')} ({pool.get('filepath')})"
    except ImportError:
        pass
    return "unknown (threadpoolctl missing)"


def numpy_features(mechanism, x, w, constants):
    if mechanism == "trig-phase":
        return lambda: np.cos(x @ w + constants)
    if mechanism in ("pos", "oprf"):
        return lambda: np.exp(x @ w + constants)
    out = np.empty((x.shape[0], 2 * w.shape[1]), dtype=x.dtype)

    def trig():
        p = x @ w
        np.cos(p, out=out[:, :M])
        np.sin(p, out=out[:, M:])
        return out
    return trig


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    print(f"NumPy {np.__version__}, BLAS: {blas_name()}")
    print(f"X: ({args.rows}, {D}) -> M = {M}; CPU time, best of {args.repeat}")
    rng = np.random.default_rng(5)
    x64 = 0.2 * rng.standard_normal((args.rows, D))
    print(f"{'mechanism':11} {'dtype':8} {'NumPy':>9} {'rfscope':>9} {'speed-up':>9}")
    for mechanism in MECHANISMS:
        feature_map = rfscope.feature_map(mechanism, "iid", m=M, d=D, seed=3)
        w64 = rng.standard_normal((D, M))
        constants64 = rng.uniform(-1.0, 1.0, M)
        for dtype in (np.float32, np.float64):
            x = x64.astype(dtype)
            w, constants = w64.astype(dtype), constants64.astype(dtype)
            reference = numpy_features(mechanism, x, w, constants)
            numpy_time = best_cpu_time(reference, args.repeat)
            ours = best_cpu_time(lambda: feature_map.transform(x, dtype=dtype), args.repeat)
            print(f"{mechanism:11} {np.dtype(dtype).name:8} {numpy_time * 1e3:7.1f}ms "
                  f"{ours * 1e3:7.1f}ms {numpy_time / ours:8.2f}x")


if __name__ == "__main__":
    main()
