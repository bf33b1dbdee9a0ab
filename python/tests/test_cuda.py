# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""PyTorch CUDA tensors scored in place by the CUDA backend: the CPU backend's values within
the spec's contract (docs/METRICS.md section 5), batches, views, streams, DLPack, and no copy
of the frames to the host. Skips without torch, a CUDA device, or a libgpussim with CUDA."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import gpussim
from conftest import ALL_LCS, fixture_frames

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

DEPTHS = [8, 10, 12, 16]


def on_gpu(a: np.ndarray):
    """A CUDA tensor of the samples (16-bit words as int16: the same bits)."""
    if a.dtype == np.uint16:
        a = a.view(np.int16)
    return torch.from_numpy(np.ascontiguousarray(a)).cuda()


@pytest.fixture(scope="module", autouse=True)
def cuda_backend_built():
    a = torch.zeros((64, 64), dtype=torch.uint8, device="cuda")
    try:
        gpussim.Scorer(features=["ssim"], backend="cuda").score(a, a)
    except gpussim.Error as e:
        if "not built" in str(e):
            pytest.skip(f"libgpussim has no CUDA backend: {e}")
        raise


def within_contract(got: dict, want: dict, what: str) -> int:
    """Asserts the contract; returns how many values are bit-identical."""
    assert list(got) == list(want), what
    exact = 0
    for k, w in want.items():
        g = got[k]
        tol = 1e-9 if k.split(".")[0] == "ssim" else 5e-5
        assert (math.isnan(g) and math.isnan(w)) or abs(g - w) <= tol, f"{what} {k}: {g!r} vs CPU {w!r}"
        exact += g == w or (math.isnan(g) and math.isnan(w))
    return exact


@pytest.mark.parametrize("depth", DEPTHS)
def test_tensors_equal_cpu_within_contract(depth):
    ref, dis = fixture_frames(depth, "00"), fixture_frames(depth, "01")
    cpu = gpussim.Scorer(features=ALL_LCS, backend="cpu", bitdepth=depth)
    gpu = gpussim.Scorer(features=ALL_LCS, backend="auto", bitdepth=depth)
    exact = total = 0
    for r, d in zip(ref, dis):
        want = cpu.score(r, d)
        got = gpu.score(tuple(on_gpu(p) for p in r), tuple(on_gpu(p) for p in d))
        # the library was given the tensors' device memory and scored it on CUDA
        assert gpu.memory == "cuda" and gpu.backend_name == "cuda" and gpu.copies == 0
        exact += within_contract(got, want, f"{depth}-bit")
        total += len(want)
    print(f"{depth}-bit: {exact}/{total} values bit-identical to the CPU backend")
    for name, st in cpu.pooled().items():
        for k, v in st.items():
            assert abs(gpu.pooled()[name][k] - v) <= (1e-9 if name == "ssim" else 5e-5)


def test_batch_view_and_stream():
    ref, dis = fixture_frames(8, "00"), fixture_frames(8, "01")
    cpu = gpussim.Scorer(features="all", backend="cpu")
    want = [cpu.score(r[0], d[0]) for r, d in zip(ref, dis)]
    R = on_gpu(np.stack([r[0] for r in ref]))
    D = on_gpu(np.stack([d[0] for d in dis]))
    s = gpussim.Scorer(features="all")
    got = s.score(R, D)  # (3, H, W): three frames in one call
    assert len(got) == 3
    for g, w in zip(got, want):
        within_contract(g, w, "batch")
    # a crop of a bigger tensor: read in place through its row stride
    big_r = torch.zeros((3, 400, 700), dtype=torch.uint8, device="cuda")
    big_d = torch.full((3, 400, 700), 9, dtype=torch.uint8, device="cuda")
    big_r[:, 20:344, 50:626] = R
    big_d[:, 20:344, 50:626] = D
    view = s.score(big_r[:, 20:344, 50:626], big_d[:, 20:344, 50:626])
    assert view == got
    # frames written on a side stream: scored after that work, on that stream
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        r2 = R.clone()
        d2 = D.clone()
        on_side = s.score(r2, d2)
    assert on_side == got


def test_dlpack_only_object():
    ref, dis = fixture_frames(10, "00"), fixture_frames(10, "01")

    class DLPackOnly:
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    s = gpussim.Scorer(features="all", bitdepth=10)
    a = s.score(on_gpu(ref[0][0]), on_gpu(dis[0][0]))
    b = s.score(DLPackOnly(on_gpu(ref[0][0])), DLPackOnly(on_gpu(dis[0][0])))
    assert a == b and s.memory == "cuda"


def test_errors_on_cuda():
    a = torch.zeros((200, 200), dtype=torch.uint8, device="cuda")
    s = gpussim.Scorer(features="all")
    with pytest.raises(gpussim.InvalidInputError, match="a row's samples must be adjacent"):
        s.score(a[:, ::2], a[:, ::2])
    with pytest.raises(gpussim.InvalidInputError, match="different memories"):
        s.score(a, a.cpu().numpy())
    with pytest.raises(gpussim.InvalidInputError, match="type <f4"):
        s.score(a.float(), a.float())


def test_no_host_copy(tmp_path):
    """A batch of 8 1080p frames: the profiler sees the library's kernels and no copy of
    frame data to the host (its device-to-host traffic is the per-frame sums only)."""
    from torch.profiler import ProfilerActivity, profile

    g = torch.Generator(device="cuda").manual_seed(1)
    ref = torch.randint(0, 256, (8, 1080, 1920), dtype=torch.uint8, device="cuda", generator=g)
    dis = (ref.to(torch.int16) + torch.randint(-8, 8, ref.shape, device="cuda", generator=g,
                                                dtype=torch.int16)).clamp(0, 255).to(torch.uint8)
    s = gpussim.Scorer(features=["float_ms_ssim"])
    s.score(ref, dis)  # warm-up: module loading, buffers
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        res = s.score(ref, dis)
        torch.cuda.synchronize()
    assert len(res) == 8 and s.memory == "cuda" and s.backend_name == "cuda"
    trace = tmp_path / "trace.json"
    prof.export_chrome_trace(str(trace))
    events = json.loads(trace.read_text()).get("traceEvents", [])
    kernels = [e for e in events if e.get("cat") == "kernel"]
    copies = [e for e in events if e.get("cat") == "gpu_memcpy"]
    dtoh = sum(int(e.get("args", {}).get("bytes", 0)) for e in copies if "DtoH" in e.get("name", ""))
    htod = sum(int(e.get("args", {}).get("bytes", 0)) for e in copies if "HtoD" in e.get("name", ""))
    frame_bytes = 1080 * 1920
    print(f"profile: {len(kernels)} kernels, device-to-host {dtoh} bytes, host-to-device {htod} bytes "
          f"for 8 frames of {frame_bytes} bytes")
    if not kernels:
        pytest.skip("the profiler saw no kernels (CUPTI unavailable): no evidence either way")
    assert dtoh < frame_bytes // 16, f"{dtoh} bytes copied to the host"
    assert htod < frame_bytes // 16, f"{htod} bytes copied from the host"
