#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# GIMP 3 on a machine that has none (Debian 12): a Debian root made once
# with debootstrap, kept outside the clone so later builds, test runs and CI
# on the same machine reuse it.  GH_GIMP3 picks the GIMP: unset or 3.0 =
# GIMP 3.0.4 in Debian 13 (/var/cache/gpu-histogram/gimp3-trixie); 3.2 =
# GIMP 3.2.6 in Debian testing (/var/cache/gpu-histogram/gimp32-forky: it
# needs a newer glibc than Debian 13's).  Each is made and used alone.
#
#   bash scripts/gimp3-env.sh setup        # make it (idempotent; ~3 min, ~1.5 GB)
#   bash scripts/gimp3-env.sh run CMD ...  # run CMD inside, in the current folder
#   bash scripts/gimp3-env.sh root         # print where it is
#   bash scripts/gimp3-env.sh ready        # exit 0 when set up (and usable: root)
#   bash scripts/gimp3-env.sh why          # one line: ready, or why not
#   bash scripts/gimp3-env.sh build SRC BUILDDIR OUT [MESON-OPTION...]
#       # the GIMP 3 plug-in of the source tree SRC, built inside in BUILDDIR
#       # (a meson build with -Dgimp2=disabled), copied to OUT
#
# `run` and `build` see the repository and /tmp at the same paths as outside (bind
# mounts in a private mount namespace, gone when CMD ends), so paths can be
# passed through unchanged.  The environment inside is clean but for
# DISPLAY, XAUTHORITY, HOME, XDG_*, GIMP3_DIRECTORY, BABL_LUT and GH_*
# variables, which are passed on.
# GH_GIMP3_ROOT overrides the location.  `setup` exits 3, saying why in one
# line, when the root cannot be made (no debootstrap, no archive).
set -euo pipefail

# Per GIMP: the Debian suite, its root, and the debootstrap script (Debian
# 12's debootstrap has no forky script; sid's makes any testing suite).
case ${GH_GIMP3:-3.0} in
  3.0) suite=trixie release="Debian 13" script=
       root=${GH_GIMP3_ROOT:-/var/cache/gpu-histogram/gimp3-trixie} ;;
  3.2) suite=forky release="Debian testing" script=/usr/share/debootstrap/scripts/sid
       root=${GH_GIMP3_ROOT:-/var/cache/gpu-histogram/gimp32-forky} ;;
  *) echo "gimp3-env: GH_GIMP3=$GH_GIMP3: 3.0 or 3.2" >&2; exit 2 ;;
esac
repo=$(cd "$(dirname "$0")/.." && pwd)
packages=(gimp libgimp-3.0-dev meson ninja-build gcc pkg-config python3
          xvfb xauth xdotool x11-apps dbus-daemon imagemagick gegl)

need_root () {
  [ "$(id -u)" = 0 ] || { echo "gimp3-env: needs root (debootstrap, chroot)" >&2; exit 3; }
}

# The root cannot be made here: says why in one line, and keeps that line
# beside the root for meson (the GIMP 3 tests then report themselves
# skipped with it) until a later setup succeeds.
cannot () {
  echo "gimp3-env: $*" >&2
  mkdir -p "$(dirname "$root")" 2>/dev/null && echo "$*" > "$root.unavailable" || true
  exit 3
}

setup () {
  need_root
  # The stamp records the package list: a new list installs what is missing.
  local stamp=$root/.gpu-histogram-ready want="${packages[*]}"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  if ! command -v debootstrap >/dev/null; then
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null \
      || cannot "debootstrap cannot be installed"
  fi
  if [ ! -x "$root/usr/bin/apt-get" ]; then
    # The mirror this machine's apt uses (deb822 or one-line sources).
    local mirror
    mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
    [ -n "$mirror" ] || cannot "no Debian mirror configured"
    rm -rf "$root.partial"
    mkdir -p "$(dirname "$root")"
    echo "gimp3-env: debootstrap $suite into $root (from $mirror)"
    if ! debootstrap --variant=minbase "$suite" "$root.partial" "$mirror" $script \
         > "$root.debootstrap.log" 2>&1; then
      tail -5 "$root.debootstrap.log" >&2
      cannot "debootstrap of $release failed (archive unreachable?)"
    fi
    # A testing suite's Release file may be past its Valid-Until date on a
    # mirror or snapshot: apt inside accepts it (it is still signed).
    [ "$suite" = trixie ] \
      || echo 'Acquire::Check-Valid-Until "false";' \
           > "$root.partial/etc/apt/apt.conf.d/99gpu-histogram-valid-until"
    rm -rf "$root"
    mv "$root.partial" "$root"
  fi
  echo "gimp3-env: installing GIMP ${GH_GIMP3:-3.0} and the build tools inside"
  inside apt-get update -q >/dev/null
  inside env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "${packages[@]}" > "$root.install.log" 2>&1 \
    || { tail -5 "$root.install.log" >&2; cannot "installing GIMP ${GH_GIMP3:-3.0} inside failed"; }
  inside apt-get clean
  echo "$want" > "$stamp"
  rm -f "$root.unavailable"
}

# CMD in the root, with a clean environment and the bind mounts.
inside () {
  local vars=(PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root
              LANG=C.UTF-8 TERM=dumb) v
  for v in $(compgen -e); do
    case $v in
      DISPLAY|XAUTHORITY|HOME|XDG_*|GIMP3_DIRECTORY|BABL_LUT|GH_*|GPU_HISTOGRAM_*|NO_AT_BRIDGE)
        vars+=("$v=${!v}") ;;
    esac
  done
  unshare -m /bin/bash -c '
    set -e
    root=$1 repo=$2 cwd=$3 n=$4; shift 4
    vars=("${@:1:$n}"); shift "$n"
    mount -t proc proc "$root/proc"
    mkdir -p "$root/dev/pts" "$root/tmp" "$root$repo"
    mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts" 2>/dev/null || true
    mount --bind /tmp "$root/tmp"
    mount --bind "$repo" "$root$repo"
    # GH_CUDA: a CUDA toolkit seen read-only as /usr/local/cuda inside
    # (scripts/build-deb.sh: the packages get the CUDA backend).
    if [ -n "${GH_CUDA:-}" ]; then
      mkdir -p "$root/usr/local/cuda"
      mount --bind "$GH_CUDA" "$root/usr/local/cuda"
      mount -o remount,bind,ro "$root/usr/local/cuda"
    fi
    exec chroot "$root" /usr/bin/env -i "${vars[@]}" /bin/sh -c \
      '"'"'cd "$1" 2>/dev/null || cd /; shift; exec "$@"'"'"' sh "$cwd" "$@"
  ' inside "$root" "$repo" "$PWD" "${#vars[@]}" "${vars[@]}" "$@"
}

# The GIMP 3 host of SRC, built by meson inside (the same meson build as on
# a system with GIMP 3: the engine on the CPU, the GIMP 3 plug-in only).
build () {
  local src=$1 dir=$2 out=$3
  shift 3
  case $dir/ in
    "$repo"/*|/tmp/*) ;;
    *) echo "gimp3-env: $dir is outside $repo and /tmp: the root cannot see it" >&2; exit 1 ;;
  esac
  # A build dir configured by an older meson (or moved) is set up again.
  if [ ! -f "$dir/build.ninja" ]; then
    rm -rf "$dir"
    inside meson setup "$dir" "$src" -Dgimp2=disabled -Dgimp3=enabled -Dgimp3_env=disabled \
      -Dcuda=disabled --buildtype=release "$@" >"$dir.setup.log" 2>&1 \
      || { cat "$dir.setup.log" >&2; echo "gimp3-env: meson setup failed inside" >&2; exit 1; }
  fi
  inside ninja -C "$dir" >&2
  # The one plug-in executable of that build (GIMP 2.10's is disabled there).
  local exe
  exe=$(find "$dir/plugin" -type f -name gpu-histogram -perm -u+x 2>/dev/null | head -1)
  [ -n "$exe" ] || { echo "gimp3-env: no GIMP 3 plug-in built in $dir/plugin" >&2; exit 1; }
  cp -p "$exe" "$out"
}

is_ready () {
  [ "$(id -u)" = 0 ] && [ -f "$root/.gpu-histogram-ready" ]
}

case ${1:-} in
  setup) setup ;;
  root) echo "$root" ;;
  ready) is_ready ;;
  why)   # why it is not ready, in one line
    if is_ready; then echo "ready"
    elif [ -f "$root.unavailable" ]; then echo "cannot be made here: $(cat "$root.unavailable")"
    elif [ "$(id -u)" != 0 ]; then echo "needs root"
    else echo "not set up (${GH_GIMP3:+GH_GIMP3=$GH_GIMP3 }bash scripts/gimp3-env.sh setup)"; fi ;;
  run|build)
    cmd=$1; shift
    need_root
    is_ready || { echo "gimp3-env: not set up: ${GH_GIMP3:+GH_GIMP3=$GH_GIMP3 }bash $0 setup" >&2; exit 3; }
    if [ "$cmd" = run ]; then
      inside "$@"
    else
      [ $# -ge 3 ] || { echo "usage: $0 build SRC BUILDDIR OUT [MESON-OPTION...]" >&2; exit 2; }
      build "$@"
    fi ;;
  *) sed -n '3,25p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
