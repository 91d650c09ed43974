#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The GEGL module in the `gegl` command-line tool, outside GIMP.

    gegl_tool.py BUILDDIR

Run inside a GIMP 3 root (GH_GIMP3_ENV and GH_GIMP3 set, as
tests/gegl_module.py is), on its nested build: the root's own `gegl` tool
(GEGL 0.4.62 in Debian 13, 0.4.72 in testing; scripts/gimp3-env.sh
installs it) loads the module from GEGL_PATH, runs each operation on a
PNG and writes a PNG, and the result equals the CLI's on the same pixels
byte for byte (GIMP 3's luminance rule), with enum properties given by
their names as a user types them; match with its reference on the aux
input (aux=[ gegl:load path=... ]) equals the CLI's --match.  GH_GIMP3_UNAVAILABLE, or no `gegl`
in the root (an older root: `scripts/gimp3-env.sh setup` adds it):
skipped (77), saying why.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from gegl_module import IMAGES, SKIP, differ, run

# (operation and properties as typed, CLI output option and options)
CASES = [
    ("gpu-histogram:equalize", [], "--equalize", ["--mode", "channels"]),
    ("gpu-histogram:equalize", ["mode=luminance"], "--equalize", ["--mode", "luminance"]),
    ("gpu-histogram:clahe", ["clip-limit=3.5", "tiles-x=5", "tiles-y=3"], "--clahe",
     ["--clip-limit", "3.5", "--tiles-x", "5", "--tiles-y", "3", "--mode", "luminance"]),
    ("gpu-histogram:threshold", [], "--binarize", []),
    ("gpu-histogram:threshold", ["channel=value", "threshold=100"], "--binarize",
     ["--channel", "value", "--threshold", "100"]),
    ("gpu-histogram:posterize", ["classes=4"], "--posterize", ["--classes", "4"]),
    # The reference on the aux input, as a user types the graph; the CLI
    # reads it as netpbm (REFERENCE: its copy in the temporary folder).
    ("gpu-histogram:match", ["mode=luminance", "aux=[", "gegl:load",
                             f"path={IMAGES / 'chelsea.png'}", "]"], "--match",
     ["--mode", "luminance", "--reference", "REFERENCE"]),
]


def main():
    if os.environ.get("GH_GIMP3_UNAVAILABLE"):
        print("SKIP:", os.environ["GH_GIMP3_UNAVAILABLE"])
        return SKIP
    build = Path(sys.argv[1]).resolve()
    if not os.environ.get("GH_GIMP3_ENV"):
        print("SKIP: runs in a GIMP 3 root (GH_GIMP3_ENV)")
        return SKIP
    if not os.environ.get("GH_INSIDE"):
        env = dict(os.environ, GH_INSIDE="1")
        return subprocess.run(["bash", env["GH_GIMP3_ENV"], "run", "python3",
                               __file__, str(build)], env=env).returncode
    tool = shutil.which("gegl")
    if not tool:
        print("SKIP: no gegl tool in this root (GH_GIMP3=... bash scripts/gimp3-env.sh setup)")
        return SKIP
    driver, cli = build / "tests" / "gegl_run", build / "cli" / "gpu-histogram-cli"
    _, ops, _ = run(["pkg-config", "--variable=pluginsdir", "gegl-0.4"])
    env = dict(os.environ, GEGL_PATH=os.pathsep.join([str(build / "gegl"), ops.strip()]))
    _, version, _ = run(["pkg-config", "--modversion", "gegl-0.4"])
    print(f"{tool}, GEGL {version.strip()}")
    fails, n = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        reference = tmp / "reference.pnm"
        rc, _, err = run([driver, "load", IMAGES / "chelsea.png", reference], env)
        if rc:
            fails.append(f"gegl_run load chelsea.png: {err.strip()}")
        for png in (IMAGES / "camera.png", IMAGES / "coffee.png"):
            src = tmp / f"{png.stem}.pnm"
            rc, _, err = run([driver, "load", png, src], env)
            if rc:
                fails.append(f"gegl_run load {png.name}: {err.strip()}")
                continue
            for k, (op, props, out_opt, opts) in enumerate(CASES):
                what = f"{png.stem}: gegl {op} {' '.join(props)}"
                out_png, mine, theirs = (tmp / f"{png.stem}-{k}.{x}"
                                         for x in ("png", "gegl.pnm", "cli.pnm"))
                rc, _, err = run([tool, png, "-o", out_png, "--", op] + props, env)
                # The tool's own warning at its exit, with no operation too.
                err = "\n".join(x for x in err.splitlines()
                                if "gegl_tile_cache_destroy" not in x)
                # "GeglBuffers leaked": one the operation did not unref.
                if rc or "WARNING" in err or "leaked" in err or not out_png.exists():
                    fails.append(f"{what}: exit {rc}: {err.strip()[-1000:]}")
                    continue
                rc, _, err = run([driver, "load", out_png, mine], env)
                rc2, _, err2 = run([cli, "--backend", "cpu", "--luminance", "linear",
                                    out_opt, theirs]
                                   + [reference if o == "REFERENCE" else o for o in opts]
                                   + [src])
                d = (f"reading its PNG: {err.strip()}" if rc else
                     f"CLI exit {rc2}: {err2.strip()}" if rc2 else differ(mine, theirs))
                n += 1
                print(f"{'ok  ' if not d else 'FAIL'} {what} = CLI" + (f": {d}" if d else ""))
                if d:
                    fails.append(f"{what}: {d}")
    for f in fails:
        print("FAIL:", f)
    print(f"{n} results compared, {len(fails)} failed")
    return 1 if fails or not n else 0


if __name__ == "__main__":
    sys.exit(main())
