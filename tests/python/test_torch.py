"""rfscope.torch: the PyTorch feature maps equal the NumPy maps of the same seed, are differentiable
(gradcheck), follow batch dimensions, devices and dtypes; LinearAttention is causal where asked and
approaches exact softmax attention as M grows, at the rate RFScope's prediction gives."""

import io
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import rfscope  # noqa: E402
from rfscope.torch import (MECHANISMS, LinearAttention, RandomFeatureMap,  # noqa: E402
                           exact_attention)

# Small tensors: one thread, so that a busy machine does not stall parallel regions.
torch.set_num_threads(1)

COUPLINGS = [c["id"] for c in rfscope.couplings()]
# GERF's data-driven choice is real; these parameters make its features complex (Im A ≠ 0, s = -1).
COMPLEX_GERF = {"A": 0.05, "A_imag": 0.3, "s": "-1"}


def relative_deviation(got, expected):
    """Largest deviation relative to the largest feature of each row (signed features have
    near-zero entries whose own relative error says nothing)."""
    got, expected = np.asarray(got), np.asarray(expected)
    scale = np.max(np.abs(expected), axis=-1, keepdims=True)
    return float(np.max(np.abs(got - expected) / scale))


# ---- the same features as the NumPy maps ---------------------------------------------------------

@pytest.mark.parametrize("coupling", COUPLINGS)
@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_features_equal_the_numpy_map_of_the_same_seed(mechanism, coupling):
    rng = np.random.default_rng(len(mechanism) * 31 + len(coupling))
    d = 5  # orf-fast and simrf-fast pad to 8 frequency coordinates
    X, Y = 0.6 * rng.standard_normal((2, 7, d))
    for kernel in ("gaussian", "softmax"):
        for params in ([{}, COMPLEX_GERF] if mechanism == "gerf" else [{}]):
            fmap = RandomFeatureMap(mechanism, coupling, num_features=12, dim=d, kernel=kernel,
                                    seed=4, trial=3, **params)
            numpy_map = rfscope.feature_map(mechanism, coupling, 12, d, 4, trial=3,
                                            kernel=kernel, **params)
            assert fmap.width == numpy_map.width
            queries = fmap(torch.from_numpy(X)).numpy()
            keys = fmap(torch.from_numpy(Y), "keys").numpy()
            assert relative_deviation(queries, numpy_map.transform(X)) < 1e-13
            assert relative_deviation(keys, numpy_map.transform_keys(Y)) < 1e-13
            # Different from another trial: the frequencies are the draw's.
            other = rfscope.feature_map(mechanism, coupling, 12, d, 4, trial=4, kernel=kernel,
                                        **params)
            assert relative_deviation(queries, other.transform(X)) > 1e-3


@pytest.mark.parametrize("mechanism", ["trig", "pos", "oprf"])
def test_norm_coupled_maps_carry_the_drawn_antithetic_norms(mechanism):
    """orf-norm-coupled: the module rebuilds its features from the C++ draw, so its frequencies keep
    the coupling's structure — orthogonal within a block, the chi_d norms of rows (1, 2), (3, 4), …
    of a block antithetic, F(r1) + F(r2) = 1 — and its features equal the NumPy map's."""
    special = pytest.importorskip("scipy.special")
    d, m = 5, 12  # blocks of 5 (two pairs and a free norm), the last one cut to 2 rows
    fmap = RandomFeatureMap(mechanism, "orf-norm-coupled", num_features=m, dim=d,
                            kernel="gaussian", seed=9, trial=2)
    omega = fmap.omega.numpy()
    assert omega.shape == (m, d)
    for start in range(0, m, d):
        block = omega[start:start + d]
        norms = np.linalg.norm(block, axis=1)
        gram = block @ block.T
        assert np.max(np.abs(gram - np.diag(norms ** 2))) < 1e-12 * np.max(norms) ** 2
        cdf = special.gammainc(d / 2, norms ** 2 / 2)
        for i in range(0, len(block) - 1, 2):
            assert abs(cdf[i] + cdf[i + 1] - 1) < 1e-12
    x = 0.5 * np.random.default_rng(1).standard_normal((4, d))
    numpy_map = rfscope.feature_map(mechanism, "orf-norm-coupled", m, d, 9, trial=2,
                                    kernel="gaussian")
    assert relative_deviation(fmap(torch.from_numpy(x)).numpy(), numpy_map.transform(x)) < 1e-13


@pytest.mark.parametrize("mechanism", ["oprf", "gerf", "sderf", "aderf", "saderf"])
def test_fitted_maps_equal_the_numpy_map_fitted_to_the_same_rows(mechanism):
    rng = np.random.default_rng(8)
    q = torch.from_numpy(0.4 * rng.standard_normal((2, 3, 40, 6)) + 0.1)
    k = torch.from_numpy(0.3 * rng.standard_normal((2, 3, 40, 6)))
    fmap = RandomFeatureMap(mechanism, "orf", num_features=16, dim=6, seed=2)
    before = fmap.omega.clone()
    fmap.fit(q, k)
    rows = np.concatenate([q.reshape(-1, 6).numpy(), k.reshape(-1, 6).numpy()])
    numpy_map = rfscope.feature_map(mechanism, "orf", 16, 6, 2, kernel="softmax", data=rows)
    assert fmap.mechanism_parameters == numpy_map.parameters
    if mechanism in ("oprf", "gerf"):
        assert fmap.mechanism_parameters["A"] != 0  # chosen from data, not the origin's optimum
    assert torch.equal(fmap.omega, before)  # fitting changes the parameters, not the draw
    x = q[0, 0].numpy()
    assert relative_deviation(fmap(q[0, 0]).numpy(), numpy_map.transform(x)) < 1e-13
    assert relative_deviation(fmap(q[0, 0], "keys").numpy(), numpy_map.transform_keys(x)) < 1e-13


def test_mechanisms_are_those_with_a_closed_form_and_others_are_refused():
    data = np.random.default_rng(0).uniform(0.1, 0.5, (10, 3))
    with_recipe = {m["id"] for m in rfscope.mechanisms()
                   if rfscope.feature_map(m["id"], "iid", 2, 3, 1, data=data)._map._recipe()
                   is not None}
    assert with_recipe == set(MECHANISMS)
    with pytest.raises(ValueError, match=r"'geom' has no closed-form .* supports trig, "):
        RandomFeatureMap("geom", "iid", 4, 3)
    with pytest.raises(ValueError, match=r"'favor' is not a mechanism"):
        RandomFeatureMap("favor", "iid", 4, 3)
    with pytest.raises(ValueError, match=r"'maclaurin' has no closed-form .* Rademacher"):
        RandomFeatureMap("maclaurin", "iid", 4, 3)
    fmap = RandomFeatureMap("pos", "iid", 4, 3)
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 3\)"):
        fmap(torch.zeros(2, 4, dtype=torch.float64))
    with pytest.raises(TypeError, match="floating-point"):
        fmap(torch.zeros(2, 3, dtype=torch.int64))
    with pytest.raises(ValueError, match="side"):
        fmap(torch.zeros(2, 3), "values")


def test_importing_without_torch_says_which_package_to_install():
    code = ("import sys; sys.modules['torch'] = None\n"
            "import rfscope\n"
            "try:\n    import rfscope.torch\n"
            "except ImportError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=os.environ.copy(), check=True)
    assert "python3-torch" in done.stdout


# ---- gradients -----------------------------------------------------------------------------------

@pytest.mark.parametrize("mechanism,params", [
    ("pos", {}), ("oprf", {"A": -0.2}), ("trig", {}), ("pos-hyp", {}), ("trig-phase", {}),
    ("gerf", COMPLEX_GERF), ("sderf", {}), ("aderf", {}), ("saderf", {}),
])
def test_feature_maps_pass_gradcheck(mechanism, params):
    rng = np.random.default_rng(5)
    fmap = RandomFeatureMap(mechanism, "orf", num_features=4, dim=3, seed=1, **params)
    if mechanism in ("sderf", "aderf", "saderf"):
        fmap.fit(0.5 * rng.standard_normal((30, 3)))  # non-trivial matrices
    x = torch.tensor(0.5 * rng.standard_normal((2, 3, 3)), requires_grad=True)
    for side in ("queries", "keys"):
        assert torch.autograd.gradcheck(lambda t: fmap(t, side), (x,))


@pytest.mark.parametrize("causal", [False, True])
def test_linear_attention_passes_gradcheck(causal):
    rng = np.random.default_rng(6)
    fmap = RandomFeatureMap("oprf", "simrf", num_features=6, dim=4, seed=3, A=-0.1)
    attention = LinearAttention(fmap, causal=causal, chunk_size=2)  # L = 5: chunks 2, 2, 1
    q, k, v = (torch.tensor(rng.standard_normal((2, 5, n)), requires_grad=True)
               for n in (4, 4, 3))
    assert torch.autograd.gradcheck(attention, (q, k, v))


# ---- attention -----------------------------------------------------------------------------------

@pytest.mark.parametrize("mechanism", ["pos", "trig", "sderf"])
def test_causal_attention_is_masked_quadratic_attention_of_the_same_features(mechanism):
    rng = np.random.default_rng(7)
    q, k, v = (torch.from_numpy(rng.standard_normal((3, 10, n))) for n in (8, 8, 5))
    fmap = RandomFeatureMap(mechanism, "iid", num_features=32, dim=8, seed=9)
    for chunk_size in (1, 3, 64):
        attention = LinearAttention(fmap, causal=True, chunk_size=chunk_size)
        query_features, key_features = attention.features(q, k)
        scores = (query_features @ key_features.transpose(-2, -1)).tril()
        expected = (scores @ v) / scores.sum(-1, keepdim=True)
        torch.testing.assert_close(attention(q, k, v), expected, rtol=1e-12, atol=1e-12)
    # Row i does not see later keys: changing the last key and value changes only the last row.
    attention = LinearAttention(fmap, causal=True, chunk_size=4)
    k2, v2 = k.clone(), v.clone()
    k2[:, -1] += 1.0
    v2[:, -1] -= 2.0
    first, second = attention(q, k, v), attention(q, k2, v2)
    torch.testing.assert_close(first[:, :-1], second[:, :-1], rtol=1e-12, atol=1e-12)
    assert not torch.allclose(first[:, -1], second[:, -1])
    # Bidirectional: the same features, unmasked.
    attention = LinearAttention(fmap)
    query_features, key_features = attention.features(q, k)
    scores = query_features @ key_features.transpose(-2, -1)
    torch.testing.assert_close(attention(q, k, v), (scores @ v) / scores.sum(-1, keepdim=True),
                               rtol=1e-12, atol=1e-12)


def test_attention_error_falls_as_one_over_root_m_as_rfscope_predicts(tmp_path):
    # PosRF (FAVOR+) attention, L = 128, d = 16, entries N(0, 0.5²): the relative output error
    # ‖Ô - O‖/‖O‖ averaged over 8 draws per M, against exact softmax attention, and against the
    # rms error RFScope's attention-error experiment predicts for these very q, k, v.
    rng = np.random.default_rng(0)
    L, d = 128, 16
    q, k = 0.5 * rng.standard_normal((2, L, d))
    v = rng.standard_normal((L, 4))
    exact = exact_attention(*(torch.from_numpy(a) for a in (q, k, v)))
    sizes = [16, 64, 256, 1024]
    measured = []
    for m in sizes:
        errors = []
        for trial in range(8):
            fmap = RandomFeatureMap("pos", "iid", num_features=m, dim=d, seed=11, trial=trial)
            out = LinearAttention(fmap)(*(torch.from_numpy(a) for a in (q, k, v)))
            errors.append(float(torch.linalg.norm(out - exact) / torch.linalg.norm(exact)))
        measured.append(np.mean(errors))
    for name, array in (("q", q), ("k", k), ("v", v)):
        np.save(tmp_path / f"{name}.npy", array)
    table = rfscope.run("attention-error", d=d, sequence_length=L, value_dimension=4,
                        mechanisms=["pos"], couplings=["iid"], features_min=16,
                        features_max=1024, features_steps=4, redraws=2, prediction_rows=L,
                        queries_file=str(tmp_path / "q.npy"), keys_file=str(tmp_path / "k.npy"),
                        values_file=str(tmp_path / "v.npy"))
    columns = table if isinstance(table, dict) else {c: table[c].to_numpy() for c in table}
    assert list(columns["features"]) == sizes
    predicted = np.asarray(columns["pos-iid-output-predicted"])
    assert measured[0] / measured[-1] >= 5  # √64 = 8 in theory
    slope = np.polyfit(np.log(sizes), np.log(measured), 1)[0]
    assert -0.65 < slope < -0.35, (slope, measured)
    # The predicted rms error (one unit of features) against the mean of 8 draws, every M.
    ratio = np.asarray(measured) / predicted
    assert np.all((ratio > 0.75) & (ratio < 1.25)), (measured, predicted)


def test_batch_dimensions_equal_per_slice_results():
    rng = np.random.default_rng(10)
    q, k = (torch.from_numpy(0.7 * rng.standard_normal((2, 3, 9, 6))) for _ in range(2))
    v = torch.from_numpy(rng.standard_normal((2, 3, 9, 4)))
    fmap = RandomFeatureMap("oprf", "orf", num_features=16, dim=6, seed=5).fit(q, k)
    features = fmap(q)
    assert features.shape == (2, 3, 9, 16)
    for causal in (False, True):
        attention = LinearAttention(fmap, causal=causal, chunk_size=4)
        out = attention(q, k, v)
        assert out.shape == (2, 3, 9, 4)
        for b in range(2):
            for h in range(3):
                torch.testing.assert_close(out[b, h], attention(q[b, h], k[b, h], v[b, h]),
                                           rtol=1e-12, atol=1e-12)
                torch.testing.assert_close(features[b, h], fmap(q[b, h]), rtol=1e-13,
                                           atol=0)
    # Keys shared by all heads broadcast against per-head queries.
    shared = LinearAttention(fmap)(q, k[:, :1], v[:, :1])
    torch.testing.assert_close(shared[:, 2], LinearAttention(fmap)(q[:, 2], k[:, 0], v[:, 0]),
                               rtol=1e-12, atol=1e-12)


# ---- draws, state, devices, dtypes ---------------------------------------------------------------

def test_redraws_are_reproducible_and_state_round_trips(tmp_path):
    a = RandomFeatureMap("pos", "simrf", num_features=8, dim=4, seed=21)
    b = RandomFeatureMap("pos", "simrf", num_features=8, dim=4, seed=21)
    first = a.omega.clone()
    a.redraw()
    a.redraw()
    assert a.trial == 2 and not torch.equal(a.omega, first)
    np.testing.assert_array_equal(
        a.omega.numpy(),
        rfscope.feature_map("pos", "simrf", 8, 4, 21, trial=2)._map._recipe()["omega"])
    b.redraw(2)
    assert torch.equal(a.omega, b.omega)

    rng = np.random.default_rng(12)
    x = torch.from_numpy(0.5 * rng.standard_normal((5, 4)))
    fitted = RandomFeatureMap("aderf", "orf", num_features=8, dim=4, seed=3)
    fitted.fit(x, 0.8 * x + 0.1)
    fitted.redraw()
    fresh = RandomFeatureMap("aderf", "orf", num_features=8, dim=4, seed=3)
    fresh.load_state_dict(fitted.state_dict())
    assert fresh.trial == 1
    torch.testing.assert_close(fresh(x, "keys"), fitted(x, "keys"), rtol=0, atol=0)
    fresh.redraw()
    fitted.redraw()  # both continue the same sequence with the same fitted matrices
    torch.testing.assert_close(fresh(x), fitted(x), rtol=0, atol=0)

    gerf = RandomFeatureMap("gerf", "iid", num_features=4, dim=4, seed=1)
    loaded = RandomFeatureMap("gerf", "iid", num_features=4, dim=4, seed=1)
    gerf.fit(x)
    loaded.load_state_dict(gerf.state_dict())  # the fitted A and s come with the state
    torch.testing.assert_close(loaded(x), gerf(x), rtol=0, atol=0)
    with pytest.raises(ValueError, match="mechanism 'oprf', this one has 'pos'"):
        RandomFeatureMap("pos", "iid", num_features=4, dim=4).load_state_dict(
            RandomFeatureMap("oprf", "iid", num_features=4, dim=4).state_dict())

    attention = LinearAttention(fitted, causal=True)
    copy = pickle.loads(pickle.dumps(attention))
    torch.testing.assert_close(copy(x, x, x), attention(x, x, x), rtol=0, atol=0)
    path = tmp_path / "attention.pt"
    torch.save(attention, path)
    torch.testing.assert_close(torch.load(path, weights_only=False)(x, x, x), attention(x, x, x),
                               rtol=0, atol=0)
    # The state holds tensors, numbers and strings only: it loads with weights_only=True.
    buffer = io.BytesIO()
    torch.save(attention.state_dict(), buffer)
    buffer.seek(0)
    state = torch.load(buffer, weights_only=True)
    assert set(state) == {"feature_map.omega", "feature_map.t1", "feature_map.t2",
                          "feature_map.derf_b", "feature_map.derf_column",
                          "feature_map._extra_state"}
    reloaded = LinearAttention(RandomFeatureMap("aderf", "orf", num_features=8, dim=4, seed=3),
                               causal=True)
    reloaded.load_state_dict(state)
    torch.testing.assert_close(reloaded(x, x, x), attention(x, x, x), rtol=0, atol=0)


def test_buffers_stay_float64_under_dtype_casts():
    fmap = RandomFeatureMap("oprf", "orf", num_features=8, dim=4, seed=1, A=-0.1)
    reference = fmap.omega.clone()
    for cast in (lambda m: m.half(), lambda m: m.to(torch.bfloat16), lambda m: m.float()):
        cast(fmap)
        assert fmap.omega.dtype == torch.float64 and torch.equal(fmap.omega, reference)
    x = torch.from_numpy(0.5 * np.random.default_rng(16).standard_normal((3, 4)))
    assert fmap(x.float()).dtype == torch.float32
    # float32 exponents of size ~1 carry ~1e-7 of rounding into the features.
    torch.testing.assert_close(fmap(x.float()).double(), fmap(x), rtol=2e-6, atol=0)


def half_matmul_available(dtype, device="cpu"):
    try:
        torch.ones(2, 2, dtype=dtype, device=device) @ torch.ones(2, 2, dtype=dtype,
                                                                  device=device)
        return True
    except RuntimeError:
        return False


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_features_overflow_plainly_and_not_stabilised(dtype):
    rng = np.random.default_rng(13)
    d = 64
    # Softmax trig features carry e^{|x|²/2}: 8 × 64 / 2 = 256 in the exponent here, beyond
    # float16 (e^11) and bfloat16 (e^88).
    x = torch.from_numpy(np.sqrt(8.0) * rng.standard_normal((4, d)))
    trig = RandomFeatureMap("trig", "orf", num_features=32, dim=d, seed=2)
    assert torch.isinf(trig(x.to(dtype))).any()
    values, log_scale = trig.scaled_features(x.to(dtype))
    assert values.dtype == dtype and torch.isfinite(values).all()
    assert log_scale.dtype == torch.float32  # exponents in float32 for half inputs
    # Against float64 on the same (rounded) inputs: only the float32 exponents and the final
    # rounding to the half dtype differ.
    exact_values, exact_log_scale = trig.scaled_features(x.to(dtype).double())
    torch.testing.assert_close(log_scale.double(), exact_log_scale, rtol=1e-6, atol=0)
    tolerance = 4 * torch.finfo(dtype).eps / np.sqrt(32)  # values ≤ 1/√M, rounded once
    assert float((values.double() - exact_values).abs().max()) <= tolerance
    # PosRF features of large inputs underflow instead (e^{ωᵀx - |x|²/2}): rows of zeros.
    pos = RandomFeatureMap("pos", "orf", num_features=32, dim=d, seed=2)
    assert (pos(x.to(dtype)) == 0).all(dim=-1).any()
    values, _ = pos.scaled_features(x.to(dtype))
    assert (values.amax(dim=-1) > 0).all()


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_half_precision_attention_is_close_to_float64(dtype):
    if not half_matmul_available(dtype):
        pytest.skip(f"this CPU build of torch {torch.__version__} has no {dtype} matmul")
    rng = np.random.default_rng(14)
    d, L = 64, 256
    # The usual attention regime (entries N(0, 1)) and a larger one where plain features
    # overflow or underflow.
    for scale in (1.0, 3.0):
        q, k = (torch.from_numpy(scale * rng.standard_normal((2, L, d))) for _ in range(2))
        v = torch.from_numpy(rng.standard_normal((2, L, 8)))
        fmap = RandomFeatureMap("oprf", "orf", num_features=128, dim=d, seed=4)
        for causal in (False, True):
            attention = LinearAttention(fmap.fit(q * d ** -0.25, k * d ** -0.25), causal=causal)
            reference = attention(q, k, v)
            out = attention(q.to(dtype), k.to(dtype), v.to(dtype))
            assert out.dtype == dtype and torch.isfinite(out).all()
            error = torch.linalg.norm(out.double() - reference) / torch.linalg.norm(reference)
            assert error < 0.03, (scale, causal, float(error))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_cuda_features_and_attention():
    rng = np.random.default_rng(15)
    d, L = 32, 512
    q, k = (torch.from_numpy(rng.standard_normal((2, 4, L, d))) for _ in range(2))
    v = torch.from_numpy(rng.standard_normal((2, 4, L, 16)))
    fmap = RandomFeatureMap("oprf", "simrf", num_features=256, dim=d, seed=6)
    attention = LinearAttention(fmap, causal=True)
    reference = attention(q, k, v)
    attention.cuda()
    assert fmap.omega.is_cuda and fmap.omega.dtype == torch.float64
    cuda_float64 = attention(q.cuda(), k.cuda(), v.cuda())
    torch.testing.assert_close(cuda_float64.cpu(), reference, rtol=1e-10, atol=1e-10)
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        out = attention(*(t.cuda().to(dtype) for t in (q, k, v)))
        assert out.is_cuda and out.dtype == dtype and torch.isfinite(out).all()
        error = torch.linalg.norm(out.double().cpu() - reference) / torch.linalg.norm(reference)
        assert error < (1e-5 if dtype == torch.float32 else 0.03), (dtype, float(error))
    x = q[0, 0].cuda().requires_grad_()
    fmap(x).sum().backward()
    assert x.grad is not None and torch.isfinite(x.grad).all()


def test_a_gaussian_map_gives_gaussian_kernel_attention():
    # φ(q)ᵀφ(k) then estimates exp(-|q - k|²/(2√d)); exact_attention(kernel="gaussian") is that.
    rng = np.random.default_rng(17)
    q, k = (torch.from_numpy(0.5 * rng.standard_normal((24, 8))) for _ in range(2))
    v = torch.from_numpy(rng.standard_normal((24, 3)))
    fmap = RandomFeatureMap("pos", "orf", num_features=4096, dim=8, kernel="gaussian", seed=1)
    out = LinearAttention(fmap)(q, k, v)

    def error(kernel):
        exact = exact_attention(q, k, v, kernel=kernel)
        return float(torch.linalg.norm(out - exact) / torch.linalg.norm(exact))
    assert error("gaussian") < 0.06 and error("softmax") > 3 * error("gaussian")  # 0.028, 0.16
