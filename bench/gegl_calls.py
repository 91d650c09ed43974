#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a live filter of the GEGL module costs in GIMP 3, against GIMP's own
equalize and the plug-in's procedure (which applies through the module where
GIMP has it, else by its pixel path), on a 25.6 MP RGB layer (astronaut.png
scaled to 6400 x 4000).

  bench/gegl_calls.py BUILD-IN-ROOT [--gimp 3.0,3.2] [--repeat N]

BUILD-IN-ROOT is a nested build of a GIMP 3 root (build/gimp3-env or
build/gimp32-env: its gegl/gpu-histogram-gegl.so and plugin/gimp3's
plug-in; the same sources serve both roots).  Each version runs
gimp-console-3 twice (scripts/gimp3-env.sh), the plug-in in a fresh
profile, one without the module (the procedure's pixel path) and one with
it in the user's GEGL folder (every row); undo is off, as in
bench/gimp_calls.py, and every call works on a fresh copy of the image
(the copy is not timed).  Per call, wall time around the PDB call as a
script waits for it (medians of N):

  gimp equalize      gimp-drawable-equalize (GIMP's own, in its process)
  pixel path         plug-in-gpu-histogram-equalize, no module (pixels
                     out to the plug-in and back)
  procedure          the same with the module: GIMP merges its filter
  filter equalize    gpu-histogram:equalize as a filter, merged
  filter edited      the same appended live with mode luminance, then set
                     to each channel and merged, all timed: with no display
                     GIMP renders a live filter only when its pixels are
                     asked for (the merge), so this is one render with the
                     changed property, the cost of an edit's re-render
  filter clahe       gpu-histogram:clahe (8 x 8 tiles, clip 2), merged
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r'''
import os, time
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, Gio
Gegl.init(None)
pdb = Gimp.get_pdb()
src = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(os.environ["GH_IMAGE"]))
src.scale(6400, 4000)
src.undo_disable()
out = open(os.environ["GH_REPORT"], "w")

def timed(name, call):
    img = src.duplicate()
    img.undo_disable()
    layer = img.get_layers()[0]
    t = time.perf_counter()
    call(img, layer)
    out.write("%s %.6f\n" % (name, time.perf_counter() - t))
    out.flush()
    img.delete()

def procedure(img, layer):
    proc = pdb.lookup_procedure("plug-in-gpu-histogram-equalize")
    cfg = proc.create_config()
    cfg.set_property("image", img)
    cfg.set_core_object_array("drawables", [layer])
    cfg.set_property("mode", 0)
    proc.run(cfg)

def merged(op):
    def call(img, layer):
        flt = Gimp.DrawableFilter.new(layer, op, op)
        flt.update()
        layer.merge_filter(flt)
    return call

def edited(img, layer):
    flt = Gimp.DrawableFilter.new(layer, "gpu-histogram:equalize", "equalize")
    flt.get_config().set_property("mode", 1)
    flt.update()
    layer.append_filter(flt)
    flt.get_config().set_property("mode", 0)
    flt.update()
    layer.merge_filters()

CALLS = [("gimp-equalize", lambda img, layer: layer.equalize(False)),
         ("procedure", procedure),
         ("filter-equalize", merged("gpu-histogram:equalize")),
         ("filter-edited", edited),
         ("filter-clahe", merged("gpu-histogram:clahe"))]
if not Gegl.has_operation("gpu-histogram:equalize"):
    CALLS = [(name if name != "procedure" else "pixel-path", call)
             for name, call in CALLS[:2]]
timed("warm-up", procedure)
for r in range(int(os.environ["GH_REPEAT"])):
    for name, call in CALLS:
        timed(name, call)
out.close()
'''

NAMES = [("gimp-equalize", "gimp-drawable-equalize (GIMP's own)"),
         ("pixel-path", "plug-in-gpu-histogram-equalize, no module"),
         ("procedure", "the same through the module"),
         ("filter-equalize", "gpu-histogram:equalize, merged"),
         ("filter-edited", "the same, live, a property changed, merged"),
         ("filter-clahe", "gpu-histogram:clahe, merged")]


def console_run(build, version, module, repeat, rows):
    """One gimp-console-3 run's calls into rows {name: [ms]}."""
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        tmp = Path(tmp)
        folder = tmp / "data" / "gegl-0.4" / "plug-ins"
        folder.mkdir(parents=True)
        if module:
            shutil.copy(build / "gegl" / "gpu-histogram-gegl.so", folder)
        plug_in = tmp / "profile" / "plug-ins" / "gpu-histogram"
        plug_in.mkdir(parents=True)
        shutil.copy2(build / "plugin" / "gimp3" / "gpu-histogram", plug_in)
        env = dict(os.environ, GH_GIMP3=version, XDG_DATA_HOME=str(tmp / "data"),
                   GIMP3_DIRECTORY=str(tmp / "profile"), GH_REPEAT=str(repeat),
                   GH_IMAGE=str(ROOT / "testimages" / "astronaut.png"),
                   GH_REPORT=str(tmp / "report"))
        env.pop("GEGL_PATH", None)
        p = subprocess.run(["bash", str(ROOT / "scripts" / "gimp3-env.sh"), "run",
                            "gimp-console-3", "-i", "--batch-interpreter=python-fu-eval",
                            "-b", "-", "--quit"], input=SCRIPT, text=True,
                           capture_output=True, env=env)
        report = (tmp / "report").read_text().splitlines() if (tmp / "report").exists() else []
        if len(report) != 1 + repeat * (5 if module else 2):
            print(f"GIMP {version}: gimp-console-3 stopped: {p.stderr[-2000:]}")
            return False
        for line in report:
            name, s = line.split()
            rows.setdefault(name, []).append(float(s) * 1e3)
        return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--gimp", default="3.0,3.2")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    build = Path(a.build).resolve()
    for version in a.gimp.split(","):
        rows = {}
        for module in (False, True):
            if not console_run(build, version, module, a.repeat, rows):
                return 1
        gimp = statistics.median(rows["gimp-equalize"])
        print(f"GIMP {version}, 6400 x 4000 RGB, ms (median of {a.repeat}), "
              "and / GIMP's own equalize (both runs' calls):")
        for name, what in NAMES:
            ms = statistics.median(rows[name])
            print(f"  {what:48s} {ms:8.1f}  {ms / gimp:5.2f}  "
                  f"{[round(x) for x in rows[name]]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
