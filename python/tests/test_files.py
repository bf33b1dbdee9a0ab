# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""score_files(): two small files made with the built ffmpeg; the result equals the filter's
own log and Scorer on the same decoded frames, bit for bit."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import gpussim
from conftest import SOURCE, read_yuv

FEATURES = "float_ssim|float_ms_ssim|float_ansnr|ssim"
W, H, N = 320, 240, 12


def _ffmpeg() -> str:
    path = os.environ.get("GPUSSIM_FFMPEG") or str(SOURCE / "build" / "_ffmpeg" / "ffmpeg")
    if not os.access(path, os.X_OK):
        pytest.skip(f"no ffmpeg with the gpussim filter at {path} (make -C build ffmpeg, or GPUSSIM_FFMPEG)")
    return path


@pytest.fixture(scope="module")
def media(tmp_path_factory):
    ff = _ffmpeg()
    d = tmp_path_factory.mktemp("media")

    def run(*args):
        subprocess.run([ff, "-hide_banner", "-nostdin", "-loglevel", "error", "-y", *args], check=True)

    src = f"testsrc2=size={W}x{H}:rate=25:duration={N / 25}"
    run("-f", "lavfi", "-i", src, "-c:v", "libx264", "-crf", "12", "-pix_fmt", "yuv420p", str(d / "ref.mp4"))
    # the distorted file: another container and quality, with an audio track
    run("-i", str(d / "ref.mp4"), "-f", "lavfi", "-i", f"sine=frequency=440:duration={N / 25}",
        "-c:v", "libx264", "-crf", "38", "-c:a", "libopus", "-shortest", str(d / "dis.mkv"))
    # a lower rendition
    run("-i", str(d / "ref.mp4"), "-vf", "scale=160:120", "-c:v", "libx264", "-crf", "30", str(d / "small.mkv"))
    # the reference without its first 3 frames (lossless)
    run("-i", str(d / "ref.mp4"), "-vf", "trim=start_frame=3,setpts=PTS-STARTPTS", "-c:v", "ffv1",
        str(d / "late.mkv"))
    for name, vf in (("ref", None), ("dis", None), ("small", f"scale={W}:{H}:flags=bicubic")):
        src_file = d / ("ref.mp4" if name == "ref" else f"{name}.mkv")
        run("-i", str(src_file), *(["-vf", vf] if vf else []), "-f", "rawvideo", "-pix_fmt", "yuv420p",
            str(d / f"{name}.yuv"))
    return ff, d


def scorer_values(d: Path, dis_name: str):
    ref = read_yuv(d / "ref.yuv", W, H, 8, W // 2, H // 2)
    dis = read_yuv(d / f"{dis_name}.yuv", W, H, 8, W // 2, H // 2)
    s = gpussim.Scorer(features=FEATURES, backend="cpu")
    return [s.score(r, x) for r, x in zip(ref, dis)], s.pooled()


def test_score_files_equals_filter_log_and_scorer(media):
    ff, d = media
    r = gpussim.score_files(d / "dis.mkv", d / "ref.mp4", features=FEATURES, backend="cpu", ffmpeg=ff)
    assert len(r.frames) == N and r.config["backend"] == "cpu"
    assert r.timestamps[1] == pytest.approx(0.04)
    # the filter's own log, run by hand
    log = d / "filter.json"
    subprocess.run([ff, "-hide_banner", "-nostdin", "-loglevel", "error", "-i", str(d / "dis.mkv"),
                    "-i", str(d / "ref.mp4"), "-lavfi",
                    f"gpussim=feature='{FEATURES}':backend=cpu:log_path={log}", "-f", "null", "-"], check=True)
    want = json.loads(log.read_text())
    assert r.frames == [f["metrics"] for f in want["frames"]]
    assert r.pooled == want["pooled_metrics"]
    # Scorer on the decoded frames: the same values and pooled statistics, bit for bit
    frames, pooled = scorer_values(d, "dis")
    assert r.frames == frames
    assert {k: {s: v[s] for s in ("min", "max", "mean", "harmonic_mean")} for k, v in r.pooled.items()} == pooled


def test_score_files_scale(media):
    ff, d = media
    auto = gpussim.score_files(d / "small.mkv", d / "ref.mp4", features=FEATURES, backend="cpu",
                               scale="auto", ffmpeg=ff)
    sized = gpussim.score_files(d / "small.mkv", d / "ref.mp4", features=FEATURES, backend="cpu",
                                scale=f"{W}x{H}", ffmpeg=ff)
    frames, _ = scorer_values(d, "small")
    assert auto.frames == sized.frames == frames
    assert len(frames) == N and frames[0]["float_ms_ssim"] < 0.99


def test_score_files_sync_window(media):
    ff, d = media
    r = gpussim.score_files(d / "late.mkv", d / "ref.mp4", features="float_ssim", backend="cpu",
                            sync_window=5, ffmpeg=ff)
    assert r.config["sync_offset"] == 3
    assert len(r.frames) == N - 3 and r.frames[0]["float_ssim"] == 1.0


def test_score_files_errors(media, tmp_path):
    ff, d = media
    with pytest.raises(gpussim.InvalidInputError, match=r"distorted file .*nope.mkv: no such file"):
        gpussim.score_files(tmp_path / "nope.mkv", d / "ref.mp4", ffmpeg=ff)
    # sizes differ without scale=: the filter refuses, its message is raised
    with pytest.raises(gpussim.Error, match=r"(?s)ffmpeg failed.*the distorted input is 160x120 but the reference is 320x240"):
        gpussim.score_files(d / "small.mkv", d / "ref.mp4", backend="cpu", ffmpeg=ff)
    with pytest.raises(gpussim.InvalidInputError, match=r"scale='big': 'WxH'"):
        gpussim.score_files(d / "small.mkv", d / "ref.mp4", scale="big", ffmpeg=ff)
    with pytest.raises(gpussim.Error, match=r"unknown feature 'bogus'"):
        gpussim.score_files(d / "dis.mkv", d / "ref.mp4", features="bogus", ffmpeg=ff)


def test_module_cli(media):
    ff, d = media
    env = dict(os.environ, GPUSSIM_FFMPEG=ff)
    r = subprocess.run([os.environ.get("PYTHON", "python3"), "-m", "gpussim", str(d / "dis.mkv"),
                        str(d / "ref.mp4"), "--features", "float_ssim", "--backend", "cpu"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"{N} frames, backend cpu\nfloat_ssim ")
