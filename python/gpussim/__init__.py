# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""gpussim: libvmaf-identical SSIM, MS-SSIM, ANSNR and integer SSIM from Python.

    import gpussim
    s = gpussim.Scorer(features=["float_ssim", "float_ms_ssim"], backend="cpu")
    m = s.score(ref, dis)        # 2-D uint8/uint16 arrays, (Y, U, V) planes, CUDA tensors
    s.pooled()                   # {"float_ssim": {"mean": ..., "min": ..., ...}, ...}
    r = gpussim.score_files("dis.mkv", "ref.mp4", features="all")   # r.frames, r.pooled

The values are libgpussim's, bit for bit: those of the `gpussim` tool and the FFmpeg filter.
"""

from ._errors import Error, InvalidInputError
from ._ffi import library_path
from ._files import FileScores, find_ffmpeg, score_files
from ._scorer import Frame, Scorer

__version__ = "0.1.0"

__all__ = ["Scorer", "Frame", "score_files", "FileScores", "find_ffmpeg", "Error",
           "InvalidInputError", "library_path", "__version__"]
