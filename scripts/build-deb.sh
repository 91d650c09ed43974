#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian packages (debian/) for each GIMP this machine has, each built
# by dpkg-buildpackage on its own distribution:
#
#   bash scripts/build-deb.sh [-o DIR] [TARGET...]
#
#   host    this system (Debian 12: GIMP 2.10; a system with libgimp-3.0-dev:
#           GIMP 3)
#   gimp3   the Debian 13 root of scripts/gimp3-env.sh (GIMP 3.0)
#   gimp32  its Debian testing root (GH_GIMP3=3.2: GIMP 3.2)
#
# With no TARGET: host and each root that is set up.  The packages
# (gimp-plugin-gpu-histogram_*.deb, gpu-histogram-cli_*.deb) go to
# DIR/TARGET/ (default out/deb/TARGET/).  dpkg-buildpackage builds in its
# source tree and writes beside it, so each target builds in a copy of the
# working tree in build-deb/TARGET/.  Missing build dependencies are
# installed with apt (as root), and the target's own lintian checks the
# packages: an error or a warning fails the build.  DEB_BUILD_OPTIONS
# (nocheck, parallel=N) and DEB_BUILD_PROFILES (pkg.gpu-histogram.nocuda)
# are passed on.  Where
# nvcc works (/usr/local/cuda/bin or the PATH), the packages have the CUDA
# backend (debian/rules); the roots see this machine's /usr/local/cuda
# (GH_CUDA, mounted read-only by scripts/gimp3-env.sh).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

out=$repo/out/deb
if [ "${1:-}" = -o ]; then
  [ $# -ge 2 ] || { echo "build-deb: -o needs a folder" >&2; exit 2; }
  mkdir -p "$2"
  out=$(cd "$2" && pwd)
  shift 2
fi

[ -x /usr/local/cuda/bin/nvcc ] && export GH_CUDA=/usr/local/cuda

root_ready () {
  GH_GIMP3=$1 bash "$repo/scripts/gimp3-env.sh" ready
}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(host)
  root_ready 3.0 && targets+=(gimp3)
  root_ready 3.2 && targets+=(gimp32)
fi

# Run inside the target's system, in the copy: installs what the build
# needs, then builds.  The forky archive's Release file is past its
# Valid-Until date: apt there needs Check-Valid-Until=false.
build_sh='
set -e
apt="apt-get -q -o DPkg::Lock::Timeout=300 -o Acquire::Check-Valid-Until=false"
install () {
  DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends "$@" >apt.log 2>&1 \
    || { $apt update >>apt.log 2>&1 &&
         DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends "$@" >>apt.log 2>&1; } \
    || { tail -20 apt.log >&2; echo "build-deb: cannot install $*" >&2; exit 1; }
}
command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || install dpkg-dev debhelper
cd src
if ! dpkg-checkbuilddeps 2>/dev/null; then
  DEBIAN_FRONTEND=noninteractive $apt build-dep -y --no-install-recommends ./ >../apt.log 2>&1 \
    || { $apt update >>../apt.log 2>&1 &&
         DEBIAN_FRONTEND=noninteractive $apt build-dep -y --no-install-recommends ./ >>../apt.log 2>&1; } \
    || { tail -20 ../apt.log >&2; echo "build-deb: cannot install the build dependencies" >&2; exit 1; }
fi
dpkg-buildpackage -b -us -uc -jauto
# lintian of the distribution built on: an error or a warning fails the
# build, but for those debian/<package>.lintian-overrides explains.
command -v lintian >/dev/null || install lintian
cd ..
echo "build-deb: lintian $(lintian --version | cut -d" " -f2)"
lintian --fail-on error,warning --display-info --info *.deb \
  || { echo "build-deb: lintian: an error or a warning above" >&2; exit 1; }
'

for t in "${targets[@]}"; do
  case $t in
    host)   gimp= ;;
    gimp3)  gimp=3.0 ;;
    gimp32) gimp=3.2 ;;
    *) echo "build-deb: unknown target $t (host, gimp3, gimp32)" >&2; exit 2 ;;
  esac
  run=()
  if [ -n "$gimp" ]; then
    if ! root_ready "$gimp"; then
      echo "build-deb: $t: GIMP $gimp's root $(GH_GIMP3=$gimp bash "$repo/scripts/gimp3-env.sh" why)" >&2
      exit 3
    fi
    run=(env GH_GIMP3="$gimp" bash "$repo/scripts/gimp3-env.sh" run)
  fi
  work=$repo/build-deb/$t
  echo "build-deb: $t: building in $work (log: $work/build.log)"
  rm -rf "$work"
  mkdir -p "$work/src"
  # The working tree as it is (tracked and untracked files, not ignored ones).
  git ls-files -z --cached --others --exclude-standard \
    | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh \
    | tar --null -T - -cf - | tar -xf - -C "$work/src"
  (cd "$work" && "${run[@]}" env DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-}" \
     DEB_BUILD_PROFILES="${DEB_BUILD_PROFILES:-}" GH_GPU_ARCHS="${GH_GPU_ARCHS:-}" sh -c "$build_sh") > "$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; echo "build-deb: $t: the build failed (log: $work/build.log)" >&2; exit 1; }
  rm -rf "${out:?}/$t"
  mkdir -p "$out/$t"
  cp "$work"/*.deb "$out/$t/"
  ls "$out/$t"/*.deb
done
