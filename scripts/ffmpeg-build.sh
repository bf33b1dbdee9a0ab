#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Builds ffmpeg + ffprobe with the gpussim filter statically linked.
#
#   scripts/ffmpeg-build.sh --builddir DIR [--source DIR | --tarball FILE | --version X.Y.Z]
#                           [--jobs N] [--vaapi] [--out DIR]
#
#   --builddir  the gpussim build tree (holds .libs/libgpussim.a); default: .
#   --source    an FFmpeg source tree (7.1, 8.x or 9.0): patched in place
#               (once; a tree that already has the filter is left as is)
#   --tarball   an FFmpeg release tarball, extracted under the output folder
#   --version   upstream version fetched with apt's source packages
#               (default 8.1.2; see scripts/dev/ffmpeg-fetch.sh)
#   --vaapi     also build the VAAPI hwcontext (needs libva-dev; the binary then
#               needs libva at run time, so it is off by default)
#   --out       output folder; default BUILDDIR/_ffmpeg
#
# Results: OUT/ffmpeg and OUT/ffprobe (links into OUT/build-<version>/), and
# OUT/cli-libav.mk with OUT/libav/include: FFmpeg's libraries for the gpussim
# tool, which then decodes compressed inputs itself.
# Nothing is redone when nothing changed: configure runs only when its
# arguments, the patch or the source tree change (a stamp file), and FFmpeg's
# own make decides what to recompile; a newer libgpussim.a forces a relink.
#
# What is built: a full FFmpeg, the one a user would otherwise install --
# every native decoder, encoder, demuxer, muxer, parser, bitstream filter,
# protocol (file, pipe, http, hls, tcp/udp/rtp...; no TLS) and filter, plus
# the gpussim filter and these external libraries, all linked statically:
#   dav1d (AV1 decode; built from source here, Debian 12 ships no static
#   libdav1d), libx264, libx265 (8/10/12-bit), libvpx (VP8/VP9), libaom (AV1
#   encode/decode), libopus, libvorbis, libmp3lame, zlib;
# and the run-time-loaded GPU interfaces: CUDA hwcontext, NVDEC/CUVID decode
# and NVENC encode (nv-codec-headers >= 12.1.14, built from source when the
# system's are older), CUDA filters compiled with clang (scale_cuda...), and
# the Vulkan hwcontext (headers >= 1.3.277 from vulkan-loader's source when
# older). The binary needs only glibc and libgcc_s at run time (x265's C++
# runtime is linked in too): copy it to any x86-64 Linux box; CUDA and Vulkan
# are opened at run time when there. x264/x265 make it a GPL build
# (--enable-gpl); nothing nonfree is enabled. Left out: the Vulkan compute
# codecs (FFV1/ProRes Vulkan encoders and hwaccels, and 9.0's APV hwaccel), whose
# shaders Debian 12's glslang cannot compile; the software codecs are all there.
#
# Compiles go through ccache when it is installed (cache in ~/.cache/ccache,
# paths made relative so another checkout of the same sources hits it); set
# FFMPEG_CCACHE=no to compile without it.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
builddir=.
source_dir=
tarball=
version=8.1.2
jobs=$(nproc 2>/dev/null || echo 2)
vaapi=no
out=

while [ $# -gt 0 ]; do
    case $1 in
    --builddir) builddir=$2; shift 2 ;;
    --source) source_dir=$2; shift 2 ;;
    --tarball) tarball=$2; shift 2 ;;
    --version) version=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --vaapi) vaapi=yes; shift ;;
    --out) out=$2; shift 2 ;;
    *) echo "ffmpeg-build: unknown argument $1" >&2; exit 2 ;;
    esac
done

builddir=$(cd "$builddir" && pwd)
[ -n "$out" ] || out=$builddir/_ffmpeg
mkdir -p "$out"
out=$(cd "$out" && pwd)
deps=$out/deps
dl=${FFMPEG_DOWNLOADS:-$out/downloads}

say() { echo "ffmpeg-build: $*"; }
die() { echo "ffmpeg-build: error: $*" >&2; exit 1; }

lib=$builddir/.libs/libgpussim.a
[ -f "$lib" ] || die "$lib not found: build the library first (make in $builddir)"

export PKG_CONFIG_PATH="$out/pkgconfig:$deps/lib/pkgconfig:$deps/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

# ---- headers FFmpeg needs at newer versions than Debian 12 ships -----------
extract_once() { # tarball destdir -> prints the top folder
    t=$1 d=$2
    top_entry=$(tar tf "$t" | head -n 1 | sed 's:^\./::; s:/.*::')
    if [ ! -f "$d/$top_entry/.extracted" ]; then
        mkdir -p "$d"
        tar xf "$t" -C "$d"
        : > "$d/$top_entry/.extracted"
    fi
    echo "$d/$top_entry"
}

if ! pkg-config --atleast-version=12.1.14.0 ffnvcodec 2>/dev/null; then
    say "ffnvcodec < 12.1.14.0 on this system: building nv-codec-headers 12.1.14.0 from source"
    t=$("$top/scripts/dev/ffmpeg-fetch.sh" nv-codec-headers 12.1.14.0 "$dl")
    d=$(extract_once "$t" "$out/src")
    make -s -C "$d" PREFIX="$deps" install >/dev/null
fi
pkg-config --atleast-version=12.1.14.0 ffnvcodec || die "ffnvcodec headers unavailable"

if ! pkg-config --atleast-version=1.3.277 vulkan 2>/dev/null; then
    say "Vulkan headers < 1.3.277 on this system: taking them from vulkan-loader's source"
    newest_vl() {
        apt-cache showsrc vulkan-loader 2>/dev/null | awk '/^Version:/ { v = $2; sub(/^[0-9]+:/, "", v); sub(/-[^-]*$/, "", v); print v }' |
            sort -V | awk -F. '$1 > 1 || ($1 == 1 && ($2 > 3 || ($2 == 3 && $3 >= 277)))' | head -n 1
    }
    vl=$(newest_vl)
    # a machine whose apt knows no newer sources yet: add them, as ffmpeg-fetch.sh would
    if [ -z "$vl" ] && "$top/scripts/apt-deb-src.sh" --can-write 2>/dev/null; then
        "$top/scripts/apt-deb-src.sh" --update >&2
        vl=$(newest_vl)
    fi
    [ -n "$vl" ] || die "no vulkan-loader source >= 1.3.277 known to apt (run scripts/apt-deb-src.sh --update as root)"
    t=$("$top/scripts/dev/ffmpeg-fetch.sh" vulkan-loader "$vl" "$dl")
    d=$(extract_once "$t" "$out/src")
    hdr=$(find "$d" -path '*/vulkan-headers/include' -type d | head -n 1)
    [ -n "$hdr" ] || hdr=$(find "$d" -name vulkan_core.h -path '*/include/vulkan/*' | head -n 1 | sed 's:/vulkan/vulkan_core.h$::')
    [ -n "$hdr" ] && [ -f "$hdr/vulkan/vulkan_core.h" ] || die "no Vulkan headers in $d"
    mkdir -p "$deps/include" "$deps/lib/pkgconfig"
    for sub in vulkan vk_video; do
        [ -d "$hdr/$sub" ] && cp -R "$hdr/$sub" "$deps/include/"
    done
    hv=$(awk '/define VK_HEADER_VERSION_COMPLETE/ { gsub(/[^0-9,]/, "", $0); split($0, a, ","); print a[2] "." a[3] }' "$deps/include/vulkan/vulkan_core.h")
    hp=$(awk '/define VK_HEADER_VERSION / { print $3 }' "$deps/include/vulkan/vulkan_core.h")
    cat > "$deps/lib/pkgconfig/vulkan.pc" <<PC
prefix=$deps
includedir=\${prefix}/include

Name: Vulkan-Headers
Description: Vulkan headers only (FFmpeg loads libvulkan at run time)
Version: $hv.$hp
Cflags: -I\${includedir}
PC
fi
pkg-config --atleast-version=1.3.277 vulkan || die "Vulkan headers >= 1.3.277 unavailable"

# ---- static libraries -------------------------------------------------------
# dav1d: Debian 12 ships only a shared libdav1d; build a static one from the
# source package (meson, a minute on two cores), once.
dav1d_version=1.5.1
if ! [ -f "$deps/lib/libdav1d.a" ] || ! pkg-config --exact-version=$dav1d_version dav1d 2>/dev/null; then
    say "building dav1d $dav1d_version (static) from source"
    t=$("$top/scripts/dev/ffmpeg-fetch.sh" dav1d $dav1d_version "$dl")
    d=$(extract_once "$t" "$out/src")
    rm -rf "$d/_build"
    (cd "$d" && meson setup _build --prefix="$deps" --libdir=lib --buildtype=release \
        --default-library=static -Denable_tools=false -Denable_tests=false -Denable_docs=false \
        > "$d/_build.log" 2>&1 && ninja -C _build install >> "$d/_build.log" 2>&1) || {
        tail -n 30 "$d/_build.log" >&2
        die "dav1d build failed (see $d/_build.log)"
    }
fi

# The other libraries come from Debian's -dev packages, which install both a
# .so and a .a. The linker takes the .so when both are in one folder, so a
# folder holding only links to the archives goes first on the link line.
static=$deps/static
mkdir -p "$static"
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
for l in x264 x265 numa vpx aom opus vorbis vorbisenc ogg mp3lame z; do
    a=/usr/lib/$multiarch/lib$l.a
    [ -f "$a" ] || die "$a not found (scripts/install-deps.sh installs the -dev packages)"
    ln -sf "$a" "$static/lib$l.a"
done
# x265 is C++: its runtime goes in statically as well
ln -sf "$(gcc -print-file-name=libstdc++.a)" "$static/libstdc++.a"

# ---- the FFmpeg source ------------------------------------------------------
if [ -n "$source_dir" ]; then
    src=$(cd "$source_dir" && pwd)
elif [ -n "$tarball" ]; then
    src=$(extract_once "$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")" "$out/src")
else
    t=$("$top/scripts/dev/ffmpeg-fetch.sh" ffmpeg "$version" "$dl")
    src=$(extract_once "$t" "$out/src")
fi
[ -f "$src/libavfilter/allfilters.c" ] || die "$src is not an FFmpeg source tree"
[ ! -f "$src/config.h" ] || die "$src was configured in-tree; run 'make distclean' there (the build is out of tree)"

ffver=$(cat "$src/RELEASE" 2>/dev/null || echo unknown)
series=$(echo "$ffver" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
patchdir=$top/patches/$series
# the tree registers the filter already (0001 applied, or wired in by hand)
wired_in() { grep -q 'ff_vf_gpussim' "$src/libavfilter/allfilters.c"; }
if [ -d "$patchdir" ]; then
    # each patch once: a tree patched by an earlier checkout may lack a newer
    # one (0002 came after 0001), so every patch not yet in it is applied
    for p in "$patchdir"/*.patch; do
        if patch -d "$src" -p1 -R --dry-run --force --quiet < "$p" > /dev/null 2>&1; then
            continue # already applied
        fi
        case $(basename "$p") in
        0001-*) ! wired_in || continue ;;
        esac
        say "patching FFmpeg $ffver with patches/$series/$(basename "$p")"
        patch -d "$src" -p1 --forward --quiet < "$p" || die "$p does not apply to $src"
    done
elif ! wired_in; then
    # (a tree of another series with the filter wired in by hand is taken as it is)
    die "no patch for FFmpeg $ffver (patches/$series): supported are $(ls "$top/patches" | tr '\n' ' ')"
fi
# copy only when changed: FFmpeg's make then recompiles exactly what changed
# (the filter and its libav glue header, which only the filter includes)
for f in vf_gpussim.c gpussim_libav.h; do
    cmp -s "$top/vf_gpussim/$f" "$src/libavfilter/$f" || cp "$top/vf_gpussim/$f" "$src/libavfilter/$f"
done

# ---- gpussim.pc for the uninstalled library -------------------------------
# Points at the build tree's static library, so the filter is linked in
# statically and the binary does not depend on where gpussim is installed.
mkdir -p "$out/pkgconfig"
libs_private=$(sed -n 's/^Libs.private: *//p' "$builddir/gpussim.pc" 2>/dev/null || echo "-lpthread -lm")
pcver=$(sed -n 's/^Version: *//p' "$builddir/gpussim.pc" 2>/dev/null || echo 0.1.0)
tmp=$(mktemp)
cat > "$tmp" <<PC
Name: gpussim
Description: libgpussim from the build tree $builddir
Version: $pcver
Libs: -L$builddir/.libs -l:libgpussim.a
Libs.private: $libs_private
Cflags: -I$top/include
PC
cmp -s "$tmp" "$out/pkgconfig/gpussim.pc" && rm -f "$tmp" || mv "$tmp" "$out/pkgconfig/gpussim.pc"

# ---- configure (only when something it depends on changed) ---------------
bdir=$out/build-$ffver
# $static relative to $bdir (configure and make run there)
mkdir -p "$bdir"
# 9.0's APV Vulkan hwaccel has shaders Debian 12's glslang cannot compile either
case $series in 9.*) vk_more=,apv_vulkan ;; *) vk_more= ;; esac
set -- \
    --pkg-config-flags=--static \
    --disable-autodetect --disable-doc --disable-debug \
    --disable-shared --enable-static \
    --disable-ffplay --enable-ffmpeg --enable-ffprobe \
    --enable-gpl \
    --enable-libgpussim \
    --enable-zlib --enable-libdav1d --enable-libx264 --enable-libx265 --enable-libvpx \
    --enable-libaom --enable-libopus --enable-libvorbis --enable-libmp3lame \
    --enable-ffnvcodec --enable-cuda --enable-nvdec --enable-cuvid --enable-nvenc \
    --enable-vulkan \
    --disable-encoder=ffv1_vulkan,prores_ks_vulkan \
    --disable-hwaccel=ffv1_vulkan,prores_vulkan,prores_raw_vulkan$vk_more \
    --enable-network \
    --extra-ldflags="-L../deps/static" \
    --extra-ldexeflags="-static-libgcc"
if command -v clang >/dev/null 2>&1; then
    set -- "$@" --enable-cuda-llvm
fi
if [ "${FFMPEG_CCACHE:-yes}" != no ] && command -v ccache >/dev/null 2>&1; then
    set -- "$@" --cc="ccache gcc" --cxx="ccache g++"
    # paths under the checkout become relative, so that another checkout (a
    # CI clone) of the same sources finds the same cache entries; for the
    # same reason no configure argument holds an absolute path (they are
    # compiled into config.h, which every file includes)
    export CCACHE_BASEDIR=$top CCACHE_NOHASHDIR=1
fi
if [ $vaapi = yes ]; then
    set -- "$@" --enable-vaapi --enable-libdrm
fi
[ -z "${FFMPEG_CONFIGURE_EXTRA:-}" ] || set -- "$@" $FFMPEG_CONFIGURE_EXTRA

stamp_text="src=$src
version=$ffver
patch=$(cat "$patchdir"/*.patch 2>/dev/null | cksum)
pc=$(cat "$out/pkgconfig/gpussim.pc" "$deps"/lib/pkgconfig/*.pc 2>/dev/null | cksum)
args=$*"
# a build folder copied from another checkout keeps its link to that
# checkout's FFmpeg sources (configure does not always replace it), and make
# would compile those: drop the link and configure again
if [ -L "$bdir/src" ] && [ "$(cd "$bdir/src" 2>/dev/null && pwd -P)" != "$(cd "$src" && pwd -P)" ]; then
    say "the build folder's source link points elsewhere: configuring again"
    rm -f "$bdir/src" "$bdir/.configure-stamp"
fi
if [ ! -f "$bdir/ffbuild/config.mak" ] || [ "$(cat "$bdir/.configure-stamp" 2>/dev/null)" != "$stamp_text" ]; then
    say "configuring FFmpeg $ffver in $bdir"
    rm -f "$bdir/.configure-stamp"
    (cd "$bdir" && "$src/configure" "$@" > configure.out 2>&1) || {
        tail -n 30 "$bdir/configure.out" >&2
        tail -n 40 "$bdir/ffbuild/config.log" >&2 2>/dev/null || true
        die "FFmpeg configure failed (see $bdir/ffbuild/config.log)"
    }
    printf '%s' "$stamp_text" > "$bdir/.configure-stamp"
fi

# FFmpeg's Makefile does not know about the external static library: relink
# when libgpussim.a is newer than the binaries.
for prog in ffmpeg ffprobe; do
    if [ -f "$bdir/${prog}_g" ] && [ "$lib" -nt "$bdir/${prog}_g" ]; then
        rm -f "$bdir/${prog}_g" "$bdir/$prog"
    fi
done

# FFmpeg 8's rule for fftools/resources/*.gz does not wait for its folder,
# so a parallel make can reach it first ("Directory nonexistent"): the
# source tree's folders are made in the build folder beforehand
(cd "$src" && find . -type d ! -path './.git*' -print0) | (cd "$bdir" && xargs -0 mkdir -p)
say "building ffmpeg and ffprobe (FFmpeg $ffver, $jobs jobs)"
make -C "$bdir" -j"$jobs" ffmpeg ffprobe > "$bdir/make.out" 2>&1 || {
    grep -E 'error|Error' "$bdir/make.out" | head -n 30 >&2
    tail -n 20 "$bdir/make.out" >&2
    die "FFmpeg build failed (see $bdir/make.out)"
}
ln -sf "build-$ffver/ffmpeg" "$out/ffmpeg"
ln -sf "build-$ffver/ffprobe" "$out/ffprobe"
"$out/ffmpeg" -hide_banner -h filter=gpussim > /dev/null 2>&1 || die "the built ffmpeg has no gpussim filter"

# ---- FFmpeg's libraries for the gpussim tool -------------------------------
# The tool decodes compressed inputs with libavformat, libavcodec and
# libswscale (tools/input_av.c; libavcodec needs libswresample): their public headers go to OUT/libav/include
# (install -C: a header that did not change keeps its time, so nothing is
# recompiled for nothing) and OUT/cli-libav.mk, included by Makefile.am,
# names them, the archives and the libraries they need (those of FFmpeg's
# own link, from its config.mak), written only when its text changes.
make -C "$bdir" install-headers INCDIR="$out/libav/include" LIBDIR="$out/libav/lib" \
    INSTALL="install -C" > "$bdir/install-headers.out" 2>&1 || {
    tail -n 20 "$bdir/install-headers.out" >&2
    die "installing FFmpeg's headers for the gpussim tool failed"
}
extralibs=
for l in avformat avcodec swresample swscale avutil; do
    extralibs="$extralibs $(sed -n "s/^EXTRALIBS-$l=//p" "$bdir/ffbuild/config.mak")"
done
tmp=$(mktemp)
cat > "$tmp" <<MK
# generated by scripts/ffmpeg-build.sh: FFmpeg $ffver's libraries for the gpussim tool
GPUSSIM_LIBAV_VERSION = $ffver
GPUSSIM_LIBAV_CFLAGS = -DGPUSSIM_HAVE_LIBAV=1 -DGPUSSIM_LIBAV_VERSION='"$ffver"' -I$out/libav/include
GPUSSIM_LIBAV_DEPS = $bdir/libavformat/libavformat.a $bdir/libavcodec/libavcodec.a $bdir/libswresample/libswresample.a $bdir/libswscale/libswscale.a $bdir/libavutil/libavutil.a
GPUSSIM_LIBAV_LIBS = \$(GPUSSIM_LIBAV_DEPS) -L$static$extralibs
MK
cmp -s "$tmp" "$out/cli-libav.mk" && rm -f "$tmp" || mv "$tmp" "$out/cli-libav.mk"
say "done: $out/ffmpeg, $out/ffprobe (FFmpeg $ffver)"
