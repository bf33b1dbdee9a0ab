#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# "Your own FFmpeg": gpussim added to an FFmpeg built the way a distribution
# builds it, from an installed libgpussim, exactly as the README describes:
#   1. libgpussim installed (make install into a staging root: headers,
#      libgpussim.a/.so, gpussim.pc);
#   2. a pristine FFmpeg 8.1 source patched with patches/8.1 and given
#      vf_gpussim.c;
#   3. configured with Debian's global options for its ffmpeg package
#      (--prefix=/usr --libdir/--incdir multiarch, --toolchain=hardened,
#      --enable-gpl, --disable-stripping, --enable-shared) plus
#      --enable-libgpussim --pkg-config-flags=--static, so libgpussim.a is
#      linked into the shared libavfilter.so (this needs a position-independent
#      archive);
#   4. built (components limited to what the fixture test needs, to keep CI
#      short: the options above are what can break the link, not the codecs).
# Asserts: libavfilter.so holds the filter and no dynamic dependency on
# libgpussim, exports no gpussim_* symbol (FFmpeg's version script), and that
# ffmpeg scores the fixtures exactly as libvmaf does (the fixture test, run
# against this build). Missing fixtures fail it at once, before the build.
NEED_FIXTURES=yes
. "$(dirname "$0")/common.sh"

builddir=${GPUSSIM_BUILDDIR:-$PWD}
[ -f "$builddir/Makefile" ] && [ -f "$builddir/.libs/libgpussim.a" ] || skip "no gpussim build at $builddir"
tarball=$(ls "$GPUSSIM_FFMPEG_DIR"/downloads/ffmpeg_8.1.*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n 1 || true)
[ -n "$tarball" ] || skip "no FFmpeg 8.1 tarball in $GPUSSIM_FFMPEG_DIR/downloads (make ffmpeg fetches it)"

# 1. install libgpussim into a staging root, as a package would
root=$work/root
make -s -C "$builddir" install-libLTLIBRARIES install-gpussimincludeHEADERS install-pkgconfigDATA \
    DESTDIR="$root" > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "make install failed"; }
pc=$(find "$root" -name gpussim.pc | head -n 1)
[ -n "$pc" ] || fail "make install installed no gpussim.pc"
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$root"
static_libs=$(pkg-config --static --libs gpussim)
note "pkg-config --static --libs gpussim: $static_libs"
# only the archive, like a -dev package that ships libgpussim.a: remove the .so
find "$root" -name 'libgpussim.so*' -exec rm -f {} +
find "$root" -name 'libgpussim.la' -exec rm -f {} +

# 2. a pristine source with the patch and the filter
mkdir -p "$work/src"
tar xf "$tarball" -C "$work/src"
src=$(find "$work/src" -maxdepth 1 -mindepth 1 -type d | head -n 1)
patch -d "$src" -p1 --quiet < "$top_srcdir/patches/8.1/0001-libavfilter-add-gpussim-filter.patch" ||
    fail "patches/8.1 does not apply to $(basename "$tarball")"
cp "$top_srcdir/vf_gpussim/vf_gpussim.c" "$top_srcdir/vf_gpussim/gpussim_libav.h" "$src/libavfilter/"

# 3. Debian's global configure options, and libgpussim statically
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
cc=gcc
command -v ccache >/dev/null 2>&1 && cc="ccache gcc" && export CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=1
mkdir -p "$work/b"
(cd "$work/b" && "$src/configure" \
    --prefix=/usr --extra-version=gpussim-distro-test --toolchain=hardened \
    --libdir=/usr/lib/$multiarch --incdir=/usr/include/$multiarch \
    --enable-gpl --disable-stripping --disable-doc --enable-shared --disable-static \
    --cc="$cc" \
    --pkg-config-flags=--static --enable-libgpussim \
    --disable-everything --disable-autodetect \
    --enable-ffmpeg --enable-ffprobe --disable-ffplay \
    --enable-filter=gpussim,metadata,buffer,buffersink,format,movie,null \
    --enable-decoder=rawvideo,wrapped_avframe --enable-encoder=rawvideo,wrapped_avframe \
    --enable-demuxer=rawvideo,yuv4mpegpipe --enable-muxer=null,rawvideo,yuv4mpegpipe \
    --enable-protocol=file,pipe --enable-indev=lavfi \
    > configure.out 2>&1) || { tail -n 30 "$work/b/configure.out" >&2; tail -n 30 "$work/b/ffbuild/config.log" >&2; fail "configure failed"; }
grep -q '^#define CONFIG_GPUSSIM_FILTER 1' "$work/b/config_components.h" ||
    fail "configure did not enable the gpussim filter"
note "ok: configured with Debian's options, --enable-shared and libgpussim through pkg-config --static"

# 4. build (the folders first, as scripts/ffmpeg-build.sh does: FFmpeg 8's
# fftools/resources/*.gz rule does not wait for its folder)
(cd "$src" && find . -type d ! -path './.git*' -print0) | (cd "$work/b" && xargs -0 mkdir -p)
make -C "$work/b" -j"$(nproc 2>/dev/null || echo 2)" > "$work/make.log" 2>&1 ||
    { grep -E 'error|relocation' "$work/make.log" | head -n 20 >&2; fail "the build failed (a non-PIC libgpussim.a cannot go into libavfilter.so)"; }
lavfi=$(ls "$work/b/libavfilter/libavfilter.so."* | head -n 1)
if readelf -d "$lavfi" | grep NEEDED | grep -q gpussim; then fail "libavfilter.so needs a shared libgpussim"; fi
if nm -D --defined-only "$lavfi" | grep -q ' gpussim_'; then fail "libavfilter.so exports libgpussim's symbols"; fi
note "ok: libgpussim.a linked into the shared libavfilter.so, nothing of it exported"

# the fixture test against this build: libvmaf's exact numbers
mkdir -p "$work/bin"
libpath=$(for d in "$work"/b/lib*; do printf '%s:' "$d"; done)
for p in ffmpeg ffprobe; do
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$libpath" "$work/b/$p" > "$work/bin/$p"
    chmod +x "$work/bin/$p"
done
"$work/bin/ffmpeg" -hide_banner -version | grep -q gpussim-distro-test || fail "the wrapper does not run the distro build"
"$work/bin/ffmpeg" -hide_banner -h filter=gpussim | grep -q '^Filter gpussim' || fail "the distro build has no gpussim filter"
GPUSSIM_FFMPEG_DIR=$work/bin "$here/test-ffmpeg-fixtures.sh" || fail "the fixture test failed against the distro-style build"
note "PASS"
