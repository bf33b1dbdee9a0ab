# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""Scorer on the CPU backend: every value equals the C tool's on the same frames, bit for bit,
and libvmaf's (the fixtures); strided views, batches, layouts, pooling."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gpussim
from conftest import (ALL_LCS, FIXTURES, H, NFRAMES, PIXFMT, W, cli_json, expected,
                      fixture_frames, write_yuv)

DEPTHS = [8, 10, 12, 16]


def scorer(**kw) -> gpussim.Scorer:
    kw.setdefault("features", ALL_LCS)
    return gpussim.Scorer(backend="cpu", **kw)


def same(a: float, b: float) -> bool:
    """Bit for bit (NaN equals NaN)."""
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def assert_frames_equal(got, want, what):
    assert len(got) == len(want), what
    for i, (g, w) in enumerate(zip(got, want)):
        assert list(g) == list(w), f"{what} frame {i}: keys {list(g)} != {list(w)}"
        bad = {k: (g[k], w[k]) for k in w if not same(g[k], float(w[k]))}
        assert not bad, f"{what} frame {i}: {bad}"


@pytest.mark.parametrize("depth", DEPTHS)
def test_fixtures_equal_cli_and_libvmaf(depth):
    ref, dis = fixture_frames(depth, "00"), fixture_frames(depth, "01")
    s = scorer(bitdepth=None if depth == 8 else depth)
    got = [s.score(r, d) for r, d in zip(ref, dis)]
    assert s.backend_name == "cpu" and s.memory == "host" and s.copies == 0
    # libvmaf's values (the fixtures), bit for bit
    want = expected(depth)["frames"]
    assert_frames_equal([{k: g[k] for k in w} for g, w in zip(got, want)], want, f"{depth}-bit vs libvmaf")
    # the C tool on the same files: every value and the pooled statistics
    cli = cli_json(FIXTURES / f"src01_hrc00_576x324_3f.{PIXFMT[depth]}.yuv",
                   FIXTURES / f"src01_hrc01_576x324_3f.{PIXFMT[depth]}.yuv", W, H, depth, "420", ALL_LCS)
    assert_frames_equal(got, [f["metrics"] for f in cli["frames"]], f"{depth}-bit vs the tool")
    pooled = s.pooled()
    assert list(pooled) == list(cli["pooled_metrics"])
    for name, st in cli["pooled_metrics"].items():
        for k, v in st.items():
            assert same(pooled[name][k], float(v)), f"pooled {name} {k}: {pooled[name][k]!r} != {v!r}"
    assert s.frames == NFRAMES


@pytest.mark.parametrize("depth", [8, 10])
def test_luma_array_equals_planes(depth):
    ref, dis = fixture_frames(depth, "00"), fixture_frames(depth, "01")
    a, b = scorer(bitdepth=depth), scorer(bitdepth=depth)
    for r, d in zip(ref, dis):
        assert a.score(r[0], d[0]) == b.score(r, d)


@pytest.mark.parametrize("depth", [8, 16])
def test_batch_equals_frame_by_frame(depth):
    ref, dis = fixture_frames(depth, "00"), fixture_frames(depth, "01")
    one = scorer(bitdepth=depth)
    want = [one.score(r, d) for r, d in zip(ref, dis)]
    batch = scorer(bitdepth=depth)
    got = batch.score(np.stack([r[0] for r in ref]), np.stack([d[0] for d in dis]))
    assert isinstance(got, list) and got == want
    assert batch.pooled() == one.pooled()
    # batches of (Y, U, V): each plane (N, h, w)
    yuv = scorer(bitdepth=depth)
    stack = lambda frames: tuple(np.stack([f[k] for f in frames]) for k in range(3))  # noqa: E731
    assert yuv.score(stack(ref), stack(dis)) == want


@pytest.mark.parametrize("depth", [8, 12])
def test_strided_views_are_read_in_place(depth):
    ref, dis = fixture_frames(depth, "00"), fixture_frames(depth, "01")
    r, d = ref[1][0], dis[1][0]
    want = scorer(bitdepth=depth).score(r, d)
    # each frame inside a bigger picture (a crop): a row stride of the big one's width
    big_r = np.full((H + 40, W + 100), 7, dtype=r.dtype)
    big_d = np.full((H + 40, W + 100), 200, dtype=r.dtype)
    big_r[13:13 + H, 31:31 + W] = r
    big_d[13:13 + H, 31:31 + W] = d
    s = scorer(bitdepth=depth)
    assert s.score(big_r[13:13 + H, 31:31 + W], big_d[13:13 + H, 31:31 + W]) == want
    assert s.copies == 0
    # bottom-up rows (a negative stride), read in place
    assert s.score(np.flipud(np.flipud(r).copy()), np.flipud(np.flipud(d).copy())) == want
    assert s.copies == 0
    # samples not adjacent in a row: copied once, same values
    wide_r = np.repeat(r, 2, axis=1)
    wide_d = np.repeat(d, 2, axis=1)
    assert s.score(wide_r[:, ::2], wide_d[:, ::2]) == want
    assert s.copies == 2


def test_big_endian_uint16():
    ref, dis = fixture_frames(10, "00"), fixture_frames(10, "01")
    want = scorer(bitdepth=10).score(ref[0][0], dis[0][0])
    s = scorer(bitdepth=10)
    assert s.score(ref[0][0].astype(">u2"), dis[0][0].astype(">u2")) == want
    assert s.copies == 2


@pytest.mark.parametrize("chroma", ["422", "444"])
def test_chroma_layouts_and_planes_all_equal_cli(tmp_path, chroma):
    rng = np.random.default_rng(21)
    w, h = 360, 180
    cw = w if chroma == "444" else w // 2
    frames_r, frames_d = [], []
    for _ in range(2):
        planes_r = [rng.integers(0, 1024, (h, w), dtype=np.uint16),
                    rng.integers(0, 1024, (h, cw), dtype=np.uint16),
                    rng.integers(0, 1024, (h, cw), dtype=np.uint16)]
        planes_d = [np.clip(p.astype(np.int32) + rng.integers(-40, 40, p.shape), 0, 1023).astype(np.uint16)
                    for p in planes_r]
        frames_r.append(tuple(planes_r))
        frames_d.append(tuple(planes_d))
    write_yuv(tmp_path / "r.yuv", frames_r)
    write_yuv(tmp_path / "d.yuv", frames_d)
    s = gpussim.Scorer(features="all", backend="cpu", bitdepth=10, planes="all")
    got = [s.score(r, d) for r, d in zip(frames_r, frames_d)]
    assert "float_ms_ssim.u" in got[0] and "ssim.v" in got[0]
    cli = cli_json(tmp_path / "r.yuv", tmp_path / "d.yuv", w, h, 10, chroma, ["all"], ["--planes", "all"])
    assert_frames_equal(got, [f["metrics"] for f in cli["frames"]], f"{chroma} planes=all vs the tool")


def test_pooled_percentiles_and_reset():
    ref, dis = fixture_frames(8, "00"), fixture_frames(8, "01")
    s = scorer()
    vals = [s.score(r[0], d[0])["float_ms_ssim"] for r, d in zip(ref, dis)]
    p = s.pooled(percentiles=[5, 50])["float_ms_ssim"]
    assert p["p50"] == float(np.percentile(vals, 50)) and p["min"] == min(vals)
    assert p["p5"] == pytest.approx(float(np.percentile(vals, 5)), rel=0, abs=1e-15)
    s.reset()
    assert s.pooled() == {} and s.frames == 0


# ---- errors: exceptions with the library's message -------------------------------------

def test_shape_mismatch():
    s = scorer()
    with pytest.raises(gpussim.InvalidInputError, match=r"reference .*324x576.* and distorted .*320x576.* differ"):
        s.score(np.zeros((324, 576), np.uint8), np.zeros((320, 576), np.uint8))


def test_wrong_dtype():
    with pytest.raises(ValueError, match=r"samples of type float32; pass uint8 \(8-bit\) or uint16"):
        scorer().score(np.zeros((200, 200), np.float32), np.zeros((200, 200), np.float32))


def test_uint16_needs_bitdepth():
    a = np.zeros((200, 200), np.uint16)
    with pytest.raises(gpussim.InvalidInputError, match=r"uint16 samples need bitdepth="):
        scorer().score(a, a)
    with pytest.raises(gpussim.InvalidInputError, match=r"bitdepth=10 needs uint16 samples"):
        scorer().score(a.astype(np.uint8), a.astype(np.uint8), bitdepth=10)


@pytest.mark.parametrize("depth", [9, 17])
def test_bitdepth_out_of_range(depth):
    a = np.zeros((200, 200), np.uint16)
    with pytest.raises(gpussim.Error) as e:
        scorer().score(a, a, bitdepth=depth)
    assert f"bit depth {depth} is not supported" in str(e.value)
    assert e.value.code == -22 and isinstance(e.value, ValueError)


def test_frame_too_small():
    a = np.zeros((100, 100), np.uint8)
    with pytest.raises(gpussim.InvalidInputError,
                       match=r"float_ms_ssim: the luma plane is 100x100; MS-SSIM needs at least 176x176"):
        gpussim.Scorer(features=["float_ms_ssim"], backend="cpu").score(a, a)


def test_unknown_feature_and_backend():
    with pytest.raises(gpussim.InvalidInputError, match=r"unknown feature 'float_ms_ssimx'"):
        gpussim.Scorer(features=["float_ms_ssimx"])
    with pytest.raises(gpussim.InvalidInputError, match=r"unknown backend 'gpu'"):
        gpussim.Scorer(backend="gpu")


def test_bad_chroma_shapes():
    y = np.zeros((200, 200), np.uint8)
    with pytest.raises(gpussim.InvalidInputError, match=r"chroma planes \(50, 50\) for luma \(200, 200\)"):
        scorer().score((y, y[:50, :50], y[:50, :50]), (y, y[:50, :50], y[:50, :50]))


def test_scorer_keeps_working_after_an_error():
    ref, dis = fixture_frames(8, "00"), fixture_frames(8, "01")
    s = scorer()
    want = s.score(ref[0][0], dis[0][0])
    with pytest.raises(gpussim.InvalidInputError):
        s.score(ref[0][0], dis[0][0][:100])
    assert s.score(ref[0][0], dis[0][0]) == want and s.frames == 2


def test_cuda_array_without_a_device_is_refused():
    """A CUDA array interface on a machine without the driver (or over host memory): an
    exception naming CUDA, never a crash."""
    host = np.zeros((200, 200), np.uint8)

    class FakeCuda:
        __cuda_array_interface__ = {"shape": (200, 200), "typestr": "|u1",
                                    "data": (host.ctypes.data, False), "version": 2}

    with pytest.raises(gpussim.Error, match="CUDA"):
        scorer().score(FakeCuda(), FakeCuda())
    with pytest.raises(gpussim.InvalidInputError, match="different memories"):
        scorer().score(FakeCuda(), host)
