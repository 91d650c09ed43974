#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# host_bundle.sh CLI OUT.tar.xz — the CLI and ImageMagick's mogrify, built
# on this Debian machine, packed with their libraries for the GPU host,
# which has neither GEGL, babl and libjpeg nor ImageMagick, so that
# bench/folder_photos.py can time both there. Every library `ldd` names goes in
# but glibc's and the C++ runtime's (the host's are newer); each program is
# started by a wrapper that sets the library paths for itself only (the
# host's python3 and OpenCV must keep their own). On the host:
#   mkdir /tmp/b && tar -C /tmp/b -xJf OUT.tar.xz && PATH=/tmp/b:$PATH \
#     python3 bench/folder_photos.py /tmp/b/gpu-histogram-cli - --count 50
set -euo pipefail
cli=$1 out=$(readlink -f "$2")
magick=/usr/lib/x86_64-linux-gnu/ImageMagick-6.9.11/modules-Q16/coders
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/bin" "$d/lib" "$d/im/coders" "$d/im/etc" "$d/gegl"
cp "$cli" /usr/bin/mogrify-im6.q16 "$d/bin/"
cp "$magick"/jpeg.* "$d/im/coders/"
cp /etc/ImageMagick-6/*.xml "$d/im/etc/"
cp -r /usr/lib/x86_64-linux-gnu/babl-0.1 "$d/babl"
ldd "$d"/bin/* "$magick/jpeg.so" | awk '$3 ~ /^\// { print $3 }' | sort -u \
  | grep -Ev 'lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so|ld-linux' \
  | xargs -I{} cp -L {} "$d/lib/"
wrapper () { # NAME PROGRAM ENV...
  local name=$1 program=$2; shift 2
  printf '#!/bin/sh\nd=$(dirname "$(readlink -f "$0")")\nLD_LIBRARY_PATH=$d/lib %s exec "$d/bin/%s" "$@"\n' \
    "$*" "$program" > "$d/$name"
  chmod +x "$d/$name"
}
wrapper mogrify mogrify-im6.q16 'MAGICK_CODER_MODULE_PATH=$d/im/coders' 'MAGICK_CONFIGURE_PATH=$d/im/etc'
wrapper gpu-histogram-cli gpu-histogram-cli 'BABL_PATH=$d/babl' 'GEGL_PATH=$d/gegl'
tar -C "$d" -cJf "$out.part" . && mv "$out.part" "$out"
