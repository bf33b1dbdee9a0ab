# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""Exceptions: the library's failures with its own messages."""

from __future__ import annotations

import errno
from typing import Optional, Sequence


class Error(RuntimeError):
    """A failure of libgpussim (or of ffmpeg in score_files()).

    ``code`` is the library's negative errno value (0 when the failure was found in
    Python); ``messages`` are the library's error-level log messages that explain it.
    """

    def __init__(self, message: str, code: int = 0, messages: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.messages = list(messages)


class InvalidInputError(Error, ValueError):
    """Input the library cannot score (-EINVAL): a bad array, format, feature or option.

    Also a ValueError, so ``except ValueError`` catches it too.
    """


def library_error(what: str, code: int, messages: Sequence[str], strerror: Optional[str]) -> Error:
    """The exception for a failed library call: its messages, else the error code's text."""
    text = "; ".join(messages) if messages else (strerror or f"error {code}")
    cls = InvalidInputError if code == -errno.EINVAL else Error
    return cls(f"{what}: {text}", code, messages)
