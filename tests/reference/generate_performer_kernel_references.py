#!/usr/bin/env python3
"""performer-pytorch's softmax_kernel and linear_attention on fixed inputs, in float64, float32 and
bfloat16 (writes performer_kernel_references.json), for core/attention/precision_attention.h's
'performer' stabiliser (tests/attention/precision_attention_test.cpp).

softmax_kernel and linear_attention below are lifted from lucidrains/performer-pytorch,
performer_pytorch/performer_pytorch.py (release 1.1.4, commit fc8b784, lines 90-115 and
170-175), unchanged except that einops' repeat is written as expand: queries subtract the max of
the projections over the features of each row, keys the max over all keys and features, then
ratio * (exp(...) + eps) with ratio = M^-1/2 and eps = 1e-4; D_inv = 1 / (q . sum_j k_j).

Inputs: one head, L = 32 queries and keys with N(0, 1) entries, d = 16, values N(0, 1), d_v = 4,
and a Gaussian projection of M = 24 rows (each row a frequency). The CPU runs bfloat16 einsum
and exp in torch 1.13; float16 has no CPU matmul there, so it is not stored.

Run from anywhere:  /usr/bin/python3 tests/reference/generate_performer_kernel_references.py
"""

import json
import os

import numpy as np
import torch


def softmax_kernel(data, *, projection_matrix, is_query, normalize_data=True, eps=1e-4, device=None):
    b, h, *_ = data.shape

    data_normalizer = (data.shape[-1] ** -0.25) if normalize_data else 1.

    ratio = (projection_matrix.shape[0] ** -0.5)

    projection = projection_matrix.expand(b, h, *projection_matrix.shape)
    projection = projection.type_as(data)

    data_dash = torch.einsum('...id,...jd->...ij', (data_normalizer * data), projection)

    diag_data = data ** 2
    diag_data = torch.sum(diag_data, dim=-1)
    diag_data = (diag_data / 2.0) * (data_normalizer ** 2)
    diag_data = diag_data.unsqueeze(dim=-1)

    if is_query:
        data_dash = ratio * (
            torch.exp(data_dash - diag_data -
                      torch.amax(data_dash, dim=-1, keepdim=True).detach()) + eps)
    else:
        data_dash = ratio * (
            torch.exp(data_dash - diag_data - torch.amax(data_dash, dim=(-1, -2), keepdim=True).detach()) + eps)

    return data_dash.type_as(data)


def linear_attention(q, k, v):
    k_cumsum = k.sum(dim=-2)
    D_inv = 1. / torch.einsum('...nd,...d->...n', q, k_cumsum.type_as(q))
    context = torch.einsum('...nd,...ne->...de', k, v)
    out = torch.einsum('...de,...nd,...n->...ne', context, q, D_inv)
    return out


def main():
    rng = np.random.default_rng(33)
    length, d, dv, m = 32, 16, 4, 24
    queries = rng.standard_normal((length, d))
    keys = rng.standard_normal((length, d))
    values = rng.standard_normal((length, dv))
    projection = rng.standard_normal((m, d))
    out = {"note": "performer-pytorch softmax_kernel / linear_attention "
                   "(generate_performer_kernel_references.py)",
           "torch": torch.__version__,
           "queries": queries.tolist(), "keys": keys.tolist(), "values": values.tolist(),
           "projection": projection.tolist()}
    for name, dtype in (("float64", torch.float64), ("float32", torch.float32),
                        ("bfloat16", torch.bfloat16)):
        def t(a):
            return torch.tensor(a, dtype=dtype)[None, None]
        proj = torch.tensor(projection, dtype=dtype)
        fq = softmax_kernel(t(queries), projection_matrix=proj, is_query=True)
        fk = softmax_kernel(t(keys), projection_matrix=proj, is_query=False)
        o = linear_attention(fq, fk, t(values))
        out[name] = {"query_features": fq[0, 0].to(torch.float64).tolist(),
                     "key_features": fk[0, 0].to(torch.float64).tolist(),
                     "output": o[0, 0].to(torch.float64).tolist()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "performer_kernel_references.json")
    with open(path, "w") as f:
        json.dump(out, f)
        f.write("\n")
    print("written to", path)


if __name__ == "__main__":
    main()
