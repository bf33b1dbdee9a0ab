# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""The package's PEP 517 build backend: standard library only, so pip builds it offline.

build_wheel: the gpussim/ sources plus libgpussim.so.0, taken from $GPUSSIM_LIBRARY or the
checkout's build/.libs/ (python/../build), into gpussim/_lib/; the wheel is then tagged for
this platform. Without a library the wheel is pure Python and loads the system's
libgpussim.so.0 (a `make install`) at import. gpussim/_build_info.py records the checkout, so
score_files() finds its build/_ffmpeg/ffmpeg.
build_sdist: the sources, tests and benchmarks (no binaries).
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import sysconfig
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent  # python/
NAME = "gpussim"
SONAME = "libgpussim.so.0"


def _project() -> Tuple[str, str, List[str], str]:
    try:
        import tomllib  # Python 3.11
    except ImportError:  # pragma: no cover
        tomllib = None
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    if tomllib is not None:
        proj = tomllib.loads(text)["project"]
        return proj["version"], proj["description"], proj["dependencies"], proj["requires-python"]
    raise RuntimeError("building gpussim needs Python 3.11 or newer (tomllib)")


def _metadata() -> str:
    version, description, deps, requires_python = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {NAME}", f"Version: {version}",
             f"Summary: {description}", "License: BSD-2-Clause",
             f"Requires-Python: {requires_python}"]
    lines += [f"Requires-Dist: {d}" for d in deps]
    return "\n".join(lines) + "\n"


def _library() -> Optional[Path]:
    env = os.environ.get("GPUSSIM_LIBRARY")
    if env:
        p = Path(env)
        if not p.is_file():
            raise RuntimeError(f"GPUSSIM_LIBRARY={env}: no such file")
        return p
    p = ROOT.parent / "build" / ".libs" / SONAME
    return p if p.is_file() else None


def _checkout() -> Optional[str]:
    top = ROOT.parent
    if (top / "configure.ac").is_file() and (top / "include" / "gpussim" / "gpussim.h").is_file():
        return str(top)
    return None


def _package_files() -> List[Path]:
    return sorted(p for p in (ROOT / NAME).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.name != "_build_info.py"
                  and p.suffix != ".pyc" and "_lib" not in p.relative_to(ROOT / NAME).parts)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _zip_write(zf: zipfile.ZipFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


def get_requires_for_build_wheel(config_settings: Optional[Dict] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict] = None) -> List[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[Dict] = None,
                metadata_directory: Optional[str] = None) -> str:
    version = _project()[0]
    libpath = _library()
    if libpath is not None:
        plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        tag = f"py3-none-{plat}"
    else:
        tag = "py3-none-any"
    filename = f"{NAME}-{version}-{tag}.whl"
    distinfo = f"{NAME}-{version}.dist-info"
    files: List[Tuple[str, bytes, int]] = []
    for p in _package_files():
        files.append((p.relative_to(ROOT).as_posix(), p.read_bytes(), 0o644))
    checkout = _checkout()
    info = "# written by the wheel build: the checkout it was built from\n"
    info += f"CHECKOUT = {checkout!r}\nLIBRARY = {str(libpath) if libpath else None!r}\n"
    files.append((f"{NAME}/_build_info.py", info.encode(), 0o644))
    if libpath is not None:
        files.append((f"{NAME}/_lib/{SONAME}", libpath.resolve().read_bytes(), 0o755))
    files.append((f"{distinfo}/METADATA", _metadata().encode(), 0o644))
    wheel_meta = ("Wheel-Version: 1.0\nGenerator: gpussim_build\n"
                  f"Root-Is-Purelib: {'false' if libpath else 'true'}\nTag: {tag}\n")
    files.append((f"{distinfo}/WHEEL", wheel_meta.encode(), 0o644))
    record = [_record_line(n, d) for n, d, _ in files] + [f"{distinfo}/RECORD,,"]
    files.append((f"{distinfo}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))
    os.makedirs(wheel_directory, exist_ok=True)
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w") as zf:
        for n, d, mode in files:
            _zip_write(zf, n, d, mode)
    return filename


def build_sdist(sdist_directory: str, config_settings: Optional[Dict] = None) -> str:
    version = _project()[0]
    base = f"{NAME}-{version}"
    members = [ROOT / "pyproject.toml", ROOT / "_backend" / "gpussim_build.py"]
    members += _package_files()
    for sub in ("tests", "bench"):
        members += sorted(p for p in (ROOT / sub).rglob("*")
                          if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    os.makedirs(sdist_directory, exist_ok=True)
    filename = f"{base}.tar.gz"
    mtime = int(time.mktime((2026, 1, 1, 0, 0, 0, 0, 0, 0)))
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tf:
        def add(name: str, data: bytes) -> None:
            ti = tarfile.TarInfo(f"{base}/{name}")
            ti.size, ti.mtime, ti.mode = len(data), mtime, 0o644
            tf.addfile(ti, io.BytesIO(data))
        for p in members:
            add(p.relative_to(ROOT).as_posix(), p.read_bytes())
        add("PKG-INFO", _metadata().encode())
    return filename


if __name__ == "__main__":
    # python3 python/_backend/gpussim_build.py sdist|wheel [OUTDIR]: the files pip would build
    import sys

    if len(sys.argv) not in (2, 3) or sys.argv[1] not in ("sdist", "wheel"):
        sys.exit("usage: gpussim_build.py sdist|wheel [OUTDIR]")
    out = sys.argv[2] if len(sys.argv) == 3 else "dist"
    name = build_sdist(out) if sys.argv[1] == "sdist" else build_wheel(out)
    print(os.path.join(out, name))
