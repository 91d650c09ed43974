#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GIMP's peak memory on a 100 MP layer through the GEGL module (which
streams in tiles with bounded memory), against
GIMP's own equalize and gegl:stretch-contrast (which requests and caches
the whole input as the module's operations do).

  bench/gegl_memory.py BUILD-IN-ROOT [--gimp 3.0,3.2] [--size 10000]
                       [--cases a,b,...] [--repeat N]

BUILD-IN-ROOT is a nested build of a GIMP 3 root (build/gimp3-env or
build/gimp32-env: its gegl/gpu-histogram-gegl.so and plugin/gimp3's
plug-in).  Each case is a gimp-console-3 run of its own
(scripts/gimp3-env.sh), the module in the user's GEGL folder, undo on (as
a user has it): astronaut.png (RGB u8, or converted to u16) scaled to SIZE x
SIZE, then the case's call.  Memory is the gimp process's, from
/proc/PID/status: VmHWM (the kernel's exact peak RSS; no sampling)

  made      the peak while the layer was made (load, scale, convert)
  before    RSS once made; the peak is then reset (clear_refs 5)
  peak      the peak during the call
  after     RSS once the call returned
  extra     peak - before: what the call needed on top of the layer

Cases (u8 unless named -u16):
  baseline         nothing
  gimp-equalize    gimp-drawable-equalize (GIMP's own)
  stretch          gegl:stretch-contrast as a filter, merged
  filter-equalize  gpu-histogram:equalize as a filter, merged
  procedure        plug-in-gpu-histogram-equalize (through the module)
  filter-clahe     gpu-histogram:clahe (8 x 8 tiles, clip 2), merged
  *-u16            the same on the layer converted to u16 (non-linear)
The photo's contrast is halved first (brightness-contrast), so that
stretch-contrast has something to stretch.  Each call must change the
layer (its mean), and the procedure make a filter (the module's), else the
row says so.
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
GIMP = os.getppid()  # python-fu-eval runs as GIMP's child

def memory():
    """{VmRSS, VmHWM} of GIMP's process, in MiB."""
    got = {}
    for line in open("/proc/%d/status" % GIMP):
        key, value = line.split(":", 1)
        if key in ("VmRSS", "VmHWM"):
            got[key] = int(value.split()[0]) / 1024
    return got

def mean(layer):
    return layer.histogram(Gimp.HistogramChannel.VALUE, 0.0, 1.0)[1]

def merged(op):
    def call(img, layer):
        flt = Gimp.DrawableFilter.new(layer, op, op)
        flt.update()
        layer.merge_filter(flt)
    return call

def procedure(img, layer):
    proc = Gimp.get_pdb().lookup_procedure("plug-in-gpu-histogram-equalize")
    cfg = proc.create_config()
    cfg.set_property("image", img)
    cfg.set_core_object_array("drawables", [layer])
    cfg.set_property("mode", 0)
    proc.run(cfg)

CALLS = {"baseline": lambda img, layer: None,
         "gimp-equalize": lambda img, layer: layer.equalize(False),
         "stretch": merged("gegl:stretch-contrast"),
         "filter-equalize": merged("gpu-histogram:equalize"),
         "procedure": procedure,
         "filter-clahe": merged("gpu-histogram:clahe")}

case, size = os.environ["GH_CASE"], int(os.environ["GH_SIZE"])
img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(os.environ["GH_IMAGE"]))
# Contrast and precision changed on the small image, then scaled: making
# the big layer leaves no big buffer freed (glibc would keep it in GIMP's
# RSS, for the call to reuse) nor kept (undo).  Less contrast, so that
# gegl:stretch-contrast has something to stretch.
img.get_layers()[0].brightness_contrast(0.0, -0.5)
if case.endswith("-u16"):
    img.convert_precision(Gimp.Precision.U16_NON_LINEAR)
img.scale(size, size)
layer = img.get_layers()[0]
img.clean_all()
made = memory()
was = mean(layer)
first = Gimp.DrawableFilter.new(layer, "gegl:invert-gamma", "probe")
first.delete()
open("/proc/%d/clear_refs" % GIMP, "w").write("5")
before = memory()["VmRSS"]
t = time.perf_counter()
CALLS[case.replace("-u16", "")](img, layer)
elapsed = time.perf_counter() - t
after = memory()
changed = case.startswith("baseline") or abs(mean(layer) - was) > 1e-6
# Filter IDs are handed out in turn: the procedure made one where it went
# through the module (tests/plugin_live_fu.py's probe).
probe = Gimp.DrawableFilter.new(layer, "gegl:invert-gamma", "probe")
made_filter = probe.get_id() - first.get_id() > 1
probe.delete()
with open(os.environ["GH_REPORT"], "w") as out:
    out.write("%s %.0f %.0f %.0f %.0f %.0f %.1f %d %d %s\n" % (
        case, made["VmHWM"], before, after["VmHWM"], after["VmRSS"],
        after["VmHWM"] - before, elapsed, changed, made_filter,
        img.get_precision().value_nick))
'''

CASES = ["baseline", "gimp-equalize", "stretch", "filter-equalize", "procedure",
         "filter-clahe", "baseline-u16", "gimp-equalize-u16", "stretch-u16",
         "filter-equalize-u16", "procedure-u16"]


def console_run(build, version, case, size):
    """One gimp-console-3 run of one case: its report's fields, or
    None (printing why)."""
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        tmp = Path(tmp)
        folder = tmp / "data" / "gegl-0.4" / "plug-ins"
        folder.mkdir(parents=True)
        shutil.copy(build / "gegl" / "gpu-histogram-gegl.so", folder)
        plug_in = tmp / "profile" / "plug-ins" / "gpu-histogram"
        plug_in.mkdir(parents=True)
        shutil.copy2(build / "plugin" / "gimp3" / "gpu-histogram", plug_in)
        env = dict(os.environ, GH_GIMP3=version, XDG_DATA_HOME=str(tmp / "data"),
                   GIMP3_DIRECTORY=str(tmp / "profile"), GH_CASE=case,
                   GH_SIZE=str(size), BABL_LUT="0",
                   GH_IMAGE=str(ROOT / "testimages" / "astronaut.png"),
                   GH_REPORT=str(tmp / "report"))
        env.pop("GEGL_PATH", None)
        p = subprocess.run(["bash", str(ROOT / "scripts" / "gimp3-env.sh"), "run",
                            "gimp-console-3", "-i", "--batch-interpreter=python-fu-eval",
                            "-b", "-", "--quit"], input=SCRIPT, text=True,
                           capture_output=True, env=env)
        report = tmp / "report"
        if not report.exists():
            print(f"GIMP {version} {case}: gimp-console-3 stopped: {p.stderr[-2000:]}")
            return None
        return report.read_text().split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--gimp", default="3.0,3.2")
    ap.add_argument("--size", type=int, default=10000)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    build = Path(a.build).resolve()
    cases = a.cases.split(",")
    for case in cases:
        if case not in CASES:
            print(f"unknown case {case}: {', '.join(CASES)}")
            return 2
    for version in a.gimp.split(","):
        print(f"GIMP {version}, {a.size} x {a.size}, MiB of the gimp process "
              f"(median of {a.repeat}; extra: each run's)")
        print(f"  {'case':22s} {'made':>6s} {'before':>6s} {'peak':>6s} {'after':>6s} "
              f"{'extra':>6s} {'s':>5s}  format")
        for case in cases:
            runs = []
            for _ in range(a.repeat):
                got = console_run(build, version, case, a.size)
                if got is None:
                    return 1
                runs.append(got)
            med = [statistics.median(float(r[k]) for r in runs) for k in range(1, 7)]
            flag = "" if all(r[7] == "1" for r in runs) else "  (layer unchanged!)"
            if case.startswith("procedure") and not all(r[8] == "1" for r in runs):
                flag += "  (not through the module!)"
            print(f"  {case:22s} {med[0]:6.0f} {med[1]:6.0f} {med[2]:6.0f} {med[3]:6.0f} "
                  f"{med[4]:6.0f} {med[5]:5.1f}  {runs[0][9]} "
                  f"{[int(float(r[5])) for r in runs]}{flag}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
