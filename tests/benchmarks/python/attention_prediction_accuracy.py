#!/usr/bin/python3
"""Predicted vs measured attention error on user arrays, as the README's table.

Writes queries, keys and values as .npy (L = 256, d = 16; isotropic rows, or anisotropic ones
whose column scales are e^{N(0, 0.5²)} normalised to rms 1; input scales 0.35 and 0.5), runs
`rfscope-cli run attention-error` on them for PosRF and OPRF under i.i.d., orthogonal and simplex
features, and prints one Markdown row per input × M × estimator: measured mean and rms (± its
standard error over the redraws), the prediction (± its quadrature's standard error, "—" where it
is not drawn) and the delta method's linearised value (i.i.d. only).

usage: attention_prediction_accuracy.py RFSCOPE_CLI [REDRAWS]
"""

import csv
import math
import os
import subprocess
import sys
import tempfile

import numpy as np


def arrays(directory, scale, anisotropic, seed=7):
    rng = np.random.default_rng(seed)
    length, d = 256, 16
    columns = np.exp(rng.normal(0, 0.5, d)) if anisotropic else np.ones(d)
    columns /= np.sqrt((columns**2).mean())
    paths = []
    for name, shape, factor in (("q", (length, d), scale * columns),
                                ("k", (length, d), scale * columns),
                                ("v", (length, 4), 1.0)):
        path = os.path.join(directory, name + ".npy")
        np.save(path, rng.normal(0, 1, shape) * factor)
        paths.append(path)
    return paths


def table(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def number(text):
    return float(text) if text not in ("", "nan") else math.nan


def main():
    cli = sys.argv[1]
    redraws = sys.argv[2] if len(sys.argv) > 2 else "200"
    print("| inputs | M | estimator | measured mean | measured rms | predicted | predicted/rms "
          "| delta method |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for scale in (0.35, 0.5):
            for anisotropic in (False, True):
                q, k, v = arrays(directory, scale, anisotropic)
                out = os.path.join(directory, "out.csv")
                subprocess.run([cli, "run", "attention-error", "--set", "d=16",
                                "--set", "queries-file=" + q, "--set", "keys-file=" + k,
                                "--set", "values-file=" + v, "--set", "mechanisms=pos,oprf",
                                "--set", "couplings=iid,orf,simrf", "--set", "features-min=128",
                                "--set", "features-max=256", "--set", "features-steps=2",
                                "--set", "redraws=" + redraws, "--set", "error-rows=8",
                                "--csv", out], check=True, capture_output=True)
                inputs = ("anisotropic" if anisotropic else "isotropic") + f" {scale}"
                for row in table(out):
                    for key, name in (("pos-iid", "PosRF IID"), ("pos-orf", "PosRF ORF"),
                                      ("pos-simrf", "PosRF SimRF"), ("oprf-iid", "OPRF IID"),
                                      ("oprf-orf", "OPRF ORF"), ("oprf-simrf", "OPRF SimRF")):
                        mean = number(row[key + "-output-mean"])
                        rms = number(row[key + "-output-rms"])
                        rms_se = number(row[key + "-output-rms-se"])
                        shown = number(row[key + "-output-predicted-shown"])
                        se = number(row[key + "-output-predicted-se"])
                        delta = number(row[key + "-linearised-predicted"])
                        predicted = "—" if math.isnan(shown) else f"{shown:.4f} ± {se:.4f}"
                        ratio = "—" if math.isnan(shown) else f"{shown / rms:.3f}"
                        linear = "—" if math.isnan(delta) else f"{delta:.4f}"
                        print(f"| {inputs} | {int(float(row['features']))} | {name} | "
                              f"{mean:.4f} | {rms:.4f} ± {rms_se:.4f} | {predicted} | {ratio} "
                              f"| {linear} |")


if __name__ == "__main__":
    main()
