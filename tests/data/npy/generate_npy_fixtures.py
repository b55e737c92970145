#!/usr/bin/python3
"""Writes the .npy fixtures of tests/data/npy_file_test.cpp with NumPy itself (Debian's
python3-numpy): every dtype, byte order, memory order and format version the reader accepts.
Run from this folder: /usr/bin/python3 generate_npy_fixtures.py"""

import numpy as np

GRID = np.arange(12).reshape(3, 4)  # the value at (r, c) is 4r + c


def write(name, array, version=None):
    with open(name, "wb") as f:
        np.lib.format.write_array(f, array, version=version, allow_pickle=False)


write("f8_c.npy", (GRID / 4).astype("<f8"))  # (r, c) → r + c/4
write("f4_big_fortran.npy", np.asfortranarray((GRID - 5.5).astype(">f4")))
write("i1_1d.npy", np.array([-128, -1, 0, 1, 127], dtype="|i1"))
write("u1_2d.npy", (GRID * 20).astype("|u1"))
write("i2_1d.npy", np.array([-32768, -2, 0, 3, 32767], dtype="<i2"))
write("u2_big.npy", np.array([[0, 1], [256, 65535]], dtype=">u2"))
write("i4_big_fortran.npy", np.asfortranarray((GRID - 6).astype(">i4") * 100000))
write("u4_1d.npy", np.array([0, 1, 4294967295], dtype="<u4"))
write("i8_v3.npy", np.array([[-(2**63), -1, 2**53], [0, 7, 2**63 - 1]], dtype="<i8"),
      version=(3, 0))
write("u8_big_v2.npy", np.array([0, 1, 2**53 + 1, 2**64 - 1], dtype=">u8"), version=(2, 0))
write("f8_empty.npy", np.zeros((0, 3), dtype="<f8"))
