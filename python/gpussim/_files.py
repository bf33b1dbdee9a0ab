# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""score_files(): any two files ffmpeg reads, scored by the gpussim FFmpeg filter."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from ._errors import Error, InvalidInputError

__all__ = ["score_files", "FileScores", "find_ffmpeg"]


@dataclass
class FileScores:
    """The scores of a score_files() run, read from the filter's JSON log."""

    #: per frame {score name: value} (libvmaf's names), in output order; NaN where null
    frames: List[Dict[str, float]]
    #: {score name: {"min", "max", "mean", "harmonic_mean", ...}}: the log's pooled_metrics
    pooled: Dict[str, Dict[str, float]]
    #: each frame's timestamp in seconds (the distorted frame's)
    timestamps: List[Optional[float]]
    #: the log's config block (backend, features, sync_offset...)
    config: Dict[str, Any]
    #: the whole parsed log
    log: Dict[str, Any] = field(repr=False)
    #: ffmpeg's warnings (inputs of different length, an uncertain sync offset...)
    messages: List[str] = field(default_factory=list)


def _has_filter(ffmpeg: str) -> bool:
    try:
        r = subprocess.run([ffmpeg, "-hide_banner", "-h", "filter=gpussim"], capture_output=True,
                           text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0 and "gpussim AVOptions" in r.stdout


def find_ffmpeg() -> str:
    """The ffmpeg with the gpussim filter: $GPUSSIM_FFMPEG, the build/_ffmpeg/ffmpeg of the
    checkout the package was built from, else `ffmpeg` on PATH when it has the filter."""
    env = os.environ.get("GPUSSIM_FFMPEG")
    if env:
        if not os.access(env, os.X_OK):
            raise Error(f"GPUSSIM_FFMPEG={env}: not an executable file")
        return env
    tried = []
    try:
        from . import _build_info

        checkout = getattr(_build_info, "CHECKOUT", None)
    except ImportError:
        checkout = None
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    # a source tree used in place (PYTHONPATH=python): its checkout
    if not os.path.isfile(os.path.join(here, "configure.ac")):
        here = ""
    for root in dict.fromkeys(r for r in (checkout, here) if r):
        cand = os.path.join(root, "build", "_ffmpeg", "ffmpeg")
        if os.access(cand, os.X_OK):
            return cand
        tried.append(cand)
    onpath = shutil.which("ffmpeg")
    if onpath and _has_filter(onpath):
        return onpath
    tried.append(f"{onpath} (no gpussim filter)" if onpath else "ffmpeg on PATH")
    raise Error("no ffmpeg with the gpussim filter: run `make -C build ffmpeg` in the checkout "
                "or set GPUSSIM_FFMPEG; tried " + ", ".join(tried))


def _escape(value: str) -> str:
    """A filter option value, escaped for the option parser and then for the graph parser."""
    v = "".join("\\" + c if c in "\\':=" else c for c in value)
    return "".join("\\" + c if c in "\\'[],;" else c for c in v)


def _probe_size(ffmpeg: str, path: str) -> str:
    """The first video stream's size, WxH, from the ffprobe next to ffmpeg."""
    ffprobe = os.path.join(os.path.dirname(ffmpeg), "ffprobe")
    if not os.access(ffprobe, os.X_OK):
        ffprobe = shutil.which("ffprobe") or ""
    if not ffprobe:
        raise Error("scale='auto' needs ffprobe next to ffmpeg or on PATH; give scale='WxH'")
    r = subprocess.run([ffprobe, "-v", "error", "-select_streams", "v:0", "-show_entries",
                        "stream=width,height", "-of", "csv=p=0:s=x", path],
                       capture_output=True, text=True)
    size = r.stdout.strip().splitlines()[0] if r.stdout.strip() else ""
    if r.returncode != 0 or "x" not in size:
        raise Error(f"ffprobe could not read the size of {path}: {r.stderr.strip()}")
    return size


def _nan(v: Any) -> float:
    return math.nan if v is None else float(v)


def score_files(distorted: Union[str, os.PathLike], reference: Union[str, os.PathLike], *,
                features: Union[None, str, Iterable[str]] = None, backend: str = "auto",
                scale: Optional[str] = None, align: Optional[str] = None,
                sync_window: Optional[int] = None, eof_action: Optional[str] = None,
                frames: Optional[int] = None, options: Optional[Mapping[str, Any]] = None,
                ffmpeg: Optional[str] = None) -> FileScores:
    """Scores two files ffmpeg can read (any container and codec) with the gpussim filter
    and returns its log: exactly the filter's frames, pairing and values.

    ``distorted``, ``reference``: paths (the filter's order: distorted first).
    ``features``: as Scorer's ("all", a list, or specs joined with "|"); None: every metric
    the frame size allows. ``backend``: the filter's backend option. ``scale``: "WxH" or
    "auto" (the reference's size) scales the distorted video first, bicubic, as for a lower
    rendition. ``align``, ``sync_window``, ``eof_action``: the filter's pairing options
    (docs/filter.md, "Pairing frames"). ``frames``: score at most this many frames.
    ``options``: any other filter options, e.g. {"planes": "all"}. ``ffmpeg``: the binary
    (default: find_ffmpeg()).
    Raises Error with ffmpeg's message when the run fails.
    """
    ffmpeg = ffmpeg or find_ffmpeg()
    dis, ref = os.fspath(distorted), os.fspath(reference)
    for what, path in (("distorted", dis), ("reference", ref)):
        if not os.path.exists(path):
            raise InvalidInputError(f"{what} file {path}: no such file")
    opts: Dict[str, Any] = {}
    if features is not None:
        opts["feature"] = "|".join([features] if isinstance(features, str) else list(features))
    opts["backend"] = backend
    for k, v in (("align", align), ("sync_window", sync_window), ("eof_action", eof_action)):
        if v is not None:
            opts[k] = v
    opts.update(options or {})
    with tempfile.TemporaryDirectory(prefix="gpussim-") as tmp:
        log_path = os.path.join(tmp, "log.json")
        opts["log_path"] = log_path
        opts["log_fmt"] = "json"
        args = ":".join(f"{k}={_escape(str(v))}" for k, v in opts.items())
        if scale:
            size = _probe_size(ffmpeg, ref) if scale == "auto" else scale
            w, sep, h = size.partition("x")
            if not (sep and w.isdigit() and h.isdigit()):
                raise InvalidInputError(f"scale={scale!r}: 'WxH' (e.g. '1920x1080') or 'auto'")
            graph = f"[0:v]scale={w}:{h}:flags=bicubic[d];[d][1:v]gpussim={args}"
        else:
            graph = f"[0:v][1:v]gpussim={args}"
        cmd = [ffmpeg, "-nostdin", "-hide_banner", "-nostats", "-loglevel", "warning",
               "-i", dis, "-i", ref, "-lavfi", graph, "-an", "-sn", "-dn"]
        if frames is not None:
            cmd += ["-frames:v", str(int(frames))]
        cmd += ["-f", "null", "-"]
        run = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        messages = [ln for ln in run.stderr.splitlines() if ln.strip()]
        if run.returncode != 0:
            # the filter's own messages say what is wrong; ffmpeg's last lines how it ended
            own = [m for m in messages if "gpussim" in m][:10]
            tail = "\n".join(dict.fromkeys(own + messages[-3:]))
            raise Error(f"ffmpeg failed (exit {run.returncode}):\n{tail}", run.returncode, messages)
        try:
            with open(log_path, encoding="utf-8") as fh:
                log = json.load(fh)
        except (OSError, ValueError) as e:
            raise Error(f"the filter's log {log_path} could not be read: {e}") from None
    frame_list = [{k: _nan(v) for k, v in fr.get("metrics", {}).items()} for fr in log.get("frames", [])]
    pooled = {name: {k: _nan(v) for k, v in st.items()}
              for name, st in log.get("pooled_metrics", {}).items()}
    return FileScores(frames=frame_list, pooled=pooled,
                      timestamps=[fr.get("timestamp") for fr in log.get("frames", [])],
                      config=log.get("config", {}), log=log, messages=messages)
