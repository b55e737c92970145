#!/usr/bin/env python3
"""Roundings to float16 and bfloat16 as NumPy and PyTorch do them (writes
reduced_precision_references.json), for core/math/reduced_precision.h.

Inputs are float32 numbers (so that PyTorch's double -> bfloat16 path, which goes through float32,
rounds once): random significands at exponents across both formats' ranges, ties (the exact
midpoints between neighbouring float16 and bfloat16 numbers, odd and even), the overflow
thresholds (65504, 65519.99, 65520), the subnormal ranges and the smallest subnormals and their
halves, zeros, infinities and NaN.

Stored: "inputs" (float32 values as exact hexadecimal doubles), "float16" (NumPy's
np.float32 -> np.float16 conversion) and "bfloat16" (torch's float32 -> torch.bfloat16), each
back as hexadecimal doubles ("inf", "-inf", "nan" for those).

Also stored, "float16_sums": pairs of float16 numbers and NumPy's float16 sum and product (the
exact result rounded once), which the C++ test reproduces by rounding the double sum and product.

Run from anywhere:  /usr/bin/python3 tests/reference/generate_reduced_precision_references.py
"""

import json
import math
import os

import numpy as np
import torch


def hexed(values):
    out = []
    for v in np.asarray(values, dtype=np.float64):
        if math.isnan(v):
            out.append("nan")
        elif math.isinf(v):
            out.append("inf" if v > 0 else "-inf")
        else:
            out.append(float(v).hex())
    return out


def main():
    rng = np.random.default_rng(20240601)
    inputs = []
    # Random significands at exponents -140 .. 130 (both formats' whole ranges and beyond).
    exponents = rng.integers(-140, 131, size=3000)
    significands = rng.uniform(1.0, 2.0, size=3000)
    signs = rng.choice([-1.0, 1.0], size=3000)
    inputs += list((signs * np.ldexp(significands, exponents)).astype(np.float32))
    # Dense near float16's limits: around 2^-24 .. 2^-13 and 6e4 .. 7e4.
    inputs += list(rng.uniform(0, 2.0**-13, size=500).astype(np.float32))
    inputs += list(rng.uniform(6.0e4, 7.0e4, size=300).astype(np.float32))
    # Exact midpoints between neighbouring float16 numbers (normal and subnormal) and bfloat16
    # numbers: ties, both parities.
    halves = rng.uniform(-1000, 1000, size=400).astype(np.float16).astype(np.float64)
    for h in halves:
        step = np.spacing(np.float16(abs(h))).astype(np.float64)
        inputs.append(np.float32(h + step / 2))
    for k in range(0, 40):
        inputs.append(np.float32((k + 0.5) * 2.0**-24))
    bf = torch.tensor(rng.uniform(-1e4, 1e4, size=400), dtype=torch.float32).to(torch.bfloat16)
    for b in bf.to(torch.float64).numpy():
        step = 2.0 ** (math.floor(math.log2(abs(b))) - 7) if b != 0 else 2.0**-133
        inputs.append(np.float32(b + step / 2))
    for k in range(0, 20):
        inputs.append(np.float32((k + 0.5) * 2.0**-133))
    specials = [0.0, -0.0, 65504.0, 65519.0, 65519.99, 65520.0, -65520.0, 65536.0, 2.0**-24,
                2.0**-25, 2.0**-25 * 1.0000001, 3 * 2.0**-26, 2.0**-14, 2.0**-14 * (1 - 2**-12),
                2.0**-133, 2.0**-134, 2.0**-126, 3.3895313892515355e38, 3.3961775292304957e38,
                3.4028234663852886e38, float("inf"), float("-inf"), float("nan")]
    inputs += [np.float32(s) for s in specials]
    x = np.array(inputs, dtype=np.float32)
    with np.errstate(over="ignore"):
        half = x.astype(np.float16).astype(np.float64)
    bfloat = torch.from_numpy(x).to(torch.bfloat16).to(torch.float64).numpy()

    a = rng.uniform(-300, 300, size=500).astype(np.float16)
    b = (rng.uniform(-300, 300, size=500) * np.exp(rng.uniform(-12, 0, size=500))).astype(np.float16)
    with np.errstate(over="ignore"):
        sums = (a + b).astype(np.float64)
        products = (a * b).astype(np.float64)

    out = {
        "note": "float32 inputs; NumPy float16 and torch bfloat16 roundings of them "
                "(generate_reduced_precision_references.py)",
        "numpy": np.__version__,
        "torch": torch.__version__,
        "inputs": hexed(x),
        "float16": hexed(half),
        "bfloat16": hexed(bfloat),
        "float16_sums": {"a": hexed(a), "b": hexed(b), "sum": hexed(sums),
                         "product": hexed(products)},
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "reduced_precision_references.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")
    print(f"{len(x)} inputs written to {path}")


if __name__ == "__main__":
    main()
