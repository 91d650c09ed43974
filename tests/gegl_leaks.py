#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The GEGL module under AddressSanitizer: no memory error, nothing leaked
per render (it runs inside GIMP's process, render after render).

    gegl_leaks.py BUILDDIR      (a -Db_sanitize=address,... build)

Runs tests/gegl_run (and through it the module) on a colour image with
alpha: every operation with its defaults, match with and without a
reference on its aux input, one refused request (the input passed
through with a warning), and live filters kept while their parameters
change and their input is painted, once, then the same five times.
ASan stops the run at the first invalid access (UBSan too, with
halt_on_error).  GEGL and babl keep some memory from their start to the
process's end (module and format tables) that LeakSanitizer reports:
what is reported after one round must be what is reported after five,
byte for byte, and what `gegl_run list` (no render) reports, so nothing
is lost per render.
"""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
IMAGE = HERE.parent / "testimages" / "coffee.png"
OPS = [["gpu-histogram:equalize"], ["gpu-histogram:equalize", "mode=luminance"],
       ["gpu-histogram:clahe"], ["gpu-histogram:threshold"], ["gpu-histogram:posterize"],
       ["gpu-histogram:threshold", "channel=alpha"], ["gpu-histogram:match"]]
# Live filters kept while their parameters change and their input is
# painted (tests/gegl_run.c live): their counts kept, dropped and freed.
LIVE = [["gpu-histogram:clahe", "clip-limit=3", "mode=each-channel", "paint", "zoom"],
        ["gpu-histogram:equalize", "mode=luminance", "paint", "zoom"]]
# Match with a reference on its aux input (OPS' match has none: passed
# through with a warning).
REFERENCE = HERE.parent / "testimages" / "chelsea.png"


def leaked(driver, env, stdin=None, args=("batch",)):
    """(bytes LeakSanitizer reports, exit status, stderr's tail)."""
    p = subprocess.run([str(driver), *args], input=stdin, capture_output=True, text=True,
                       env=env)
    if "ERROR: AddressSanitizer" in p.stderr or "runtime error" in p.stderr:
        return None, p.returncode, p.stderr[-3000:]
    m = re.search(r"SUMMARY: AddressSanitizer: (\d+) byte", p.stderr)
    return int(m.group(1)) if m else 0, p.returncode, p.stderr[-3000:]


def main():
    build = Path(sys.argv[1]).resolve()
    driver = build / "tests" / "gegl_run"
    # GEGL_PATH replaces GEGL's own folder: both, for gegl:load.
    ops = subprocess.run(["pkg-config", "--variable=pluginsdir", "gegl-0.4"],
                         capture_output=True, text=True).stdout.strip()
    env = dict(os.environ, GEGL_PATH=os.pathsep.join([str(build / "gegl"), ops]),
               ASAN_OPTIONS="detect_leaks=1:exitcode=23",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        def rounds(n):
            one = ["\t".join(["apply", op[0], str(IMAGE), f"{tmp}/out{k}.pnm", "--alpha"]
                             + op[1:]) for k, op in enumerate(OPS)]
            one.append("\t".join(["apply-aux", "gpu-histogram:match", str(IMAGE),
                                  str(REFERENCE), f"{tmp}/out-match.pnm", "--alpha",
                                  "mode=luminance"]))
            one += ["\t".join(["live", op[0], str(IMAGE)] + op[1:]) for op in LIVE]
            return "".join(line + "\n" for _ in range(n) for line in one)
        base, rc0, err0 = leaked(driver, env, args=("list",))
        one, rc1, err1 = leaked(driver, env, rounds(1))
        five, rc5, err5 = leaked(driver, env, rounds(5))
    for what, n, rc, err in (("list", base, rc0, err0), ("one round", one, rc1, err1),
                             ("five rounds", five, rc5, err5)):
        print(f"{what}: {n} bytes reported leaked, exit {rc}")
        if n is None or rc not in (0, 23):
            fails.append(f"{what}: a memory error or exit {rc}:\n{err}")
    if None not in (base, one, five) and not base == one == five:
        fails.append(f"leaks grow with renders: {base} bytes with none, {one} after one "
                     f"round of {len(OPS) + 1 + len(LIVE)}, {five} after five")
    for f in fails:
        print("FAIL:", f)
    if not fails:
        print(f"ok   {(len(OPS) + 1 + len(LIVE)) * 6} renders under ASan: no memory error, "
              f"nothing leaked per render ({base} bytes GEGL keeps from its start)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
