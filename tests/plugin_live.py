#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The GIMP 3 procedures through the GEGL module, in GIMP 3.

    plugin_live.py PLUGIN MODULE

PLUGIN is the GIMP 3 plug-in, MODULE gpu-histogram-gegl.so of the same
build.  With GH_GIMP3_ENV and GH_GIMP3 set (scripts/gimp3-env.sh) it runs
inside that GIMP 3 root; GH_GIMP3_UNAVAILABLE: skipped (77), saying why.

Two gimp-console-3 runs make the same procedure calls
(plugin_live_fu.py), one with the module in the user's GEGL folder, one
without.  With the module: merged by default (no filter left on the
layer), one filter made for equalize and CLAHE (the module's: the pixel
path makes none), equal byte for byte to the run without it (today's
pixel path); with live TRUE the layer's filter list holds the module's
filter, its pixels unchanged until merged, then the same bytes; on
16-bit, 8-bit linear and float layers too, in the layer's own format.  Without
the module, live TRUE works as today: no filter, the pixel path's bytes;
so does a call under a selection with the module (the plug-in's own
path: the module would count the selection's bounding box).  Match goes
through the module merged (its filter's aux input the reference, given
whole by GIMP): on references of each kind, equal to the pixel path;
a reference in an image with a selection keeps the pixel path, an empty
one fails as it does there; it has no live argument.
The module's own filter under a feathered ellipse, live and merged at
once: unselected pixels unchanged, fully selected ones equal to the
procedure on a copy cropped to the selection's bounds, partly selected
ones blended in linear light (selection_checks).
An interactive run without a display (the dialog flow on its settings,
as Filters > Repeat; a first run's: none remembered) does the same
through the flow's hook.
One undo step is the procedure's undo group around either path (GIMP has
no PDB call that undoes: ui_gimp_dialog.py's Ctrl+Z checks the dialog's).
"""
import array
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve().parent
IMAGES = HERE.parent / "testimages"
ADOBE = HERE / "fixtures" / "profiled" / "adobe.png"

# (image, procedure, arguments, what the module serves[, run mode]): the
# five procedures with a module operation, on a colour and a gray layer;
# "both" merged and live, "live" only live (binarize's Otsu and multi-Otsu
# merged: their levels are the return values, which the plug-in counts),
# "merged" only merged (match: GIMP keeps no filter with an aux input
# live; it has no live argument: its live run is a merged one), "none" (a selection, "select=x,y,w,h" or
# "ellipse=x,y,w,h,feather": the module would count its bounding box
# unweighted; match to a reference GIMP would not give whole: its image's
# selection; to a reference's luminance outside sRGB), "fails" (a reference with no pixels: the procedure's error,
# with and without the module).  "reference=": plugin_live_fu.py's
# reference().
CASES = [
    ("coffee", "equalize", ["mode=0"], "both"),
    ("coffee", "clahe", [], "both", "INTERACTIVE"),
    ("coffee", "equalize", ["mode=1"], "both"),
    ("camera", "equalize", ["mode=0"], "both"),
    ("coffee", "clahe", ["clip-limit=3.5", "tiles-x=5", "tiles-y=3", "mode=1"], "both"),
    ("coffee", "binarize", ["channel=5", "threshold=100"], "both"),
    # Other precisions, compared in the layer's own format.
    ("coffee", "equalize", ["precision=U16_NON_LINEAR", "mode=0"], "both"),
    ("coffee", "clahe", ["precision=U16_NON_LINEAR", "mode=1"], "both"),
    ("chelsea", "equalize", ["precision=U8_LINEAR", "mode=1"], "both"),
    ("coffee", "binarize", ["precision=FLOAT_LINEAR", "channel=5", "threshold=100"], "both"),
    ("camera", "binarize", ["channel=0", "threshold=-1"], "live"),
    ("coffee", "multi-otsu", ["channel=5", "classes=3", "apply=1"], "live"),
    ("coffee", "equalize", ["mode=0", "select=37,21,301,203"], "none"),
    ("coffee", "equalize", ["mode=0", "ellipse=60,40,201,151,12"], "none"),
    ("coffee", "match", ["reference=camera", "mode=0"], "merged"),
    ("coffee", "match", ["reference=chelsea", "mode=1"], "merged"),
    ("camera", "match", ["reference=coffee", "mode=0"], "merged"),
    ("coffee", "match", ["reference=chelsea:same", "mode=0"], "merged"),
    ("coffee", "match", ["reference=:red", "mode=1"], "merged"),
    ("coffee", "match", ["reference=chelsea:indexed", "mode=0"], "merged"),
    ("coffee", "match", ["reference=chelsea:u16", "mode=1"], "merged"),
    ("coffee", "match", ["precision=U16_NON_LINEAR", "reference=chelsea", "mode=0"], "merged"),
    ("coffee", "match", ["reference=chelsea:holes", "mode=1"], "merged"),
    ("coffee", "match", ["reference=chelsea:select", "mode=0"], "none"),
    # An Adobe RGB reference: its channels as stored, its luminance babl's.
    ("coffee", "match", [f"reference={ADOBE}", "mode=0"], "merged"),
    ("coffee", "match", [f"reference={ADOBE}", "mode=1"], "none"),
    ("coffee", "match", ["reference=chelsea", "mode=0", "select=37,21,301,203"], "none"),
    ("coffee", "match", ["reference=chelsea:clear", "mode=0"], "fails"),
]
# The module's own filter under a feathered ellipse (not through the
# procedures): image, "x,y,w,h,feather".
SELECTION = ("coffee", "60,40,201,151,12")
SUCCESS = "3"  # Gimp.PDBStatusType.SUCCESS


def console_run(plugin, module, profile, tmp, name):
    out = tmp / name
    out.mkdir()
    data = tmp / (name + "-data")
    folder = data / "gegl-0.4" / "plug-ins"
    folder.mkdir(parents=True)
    if module:
        shutil.copy(module, folder)
    plug_in = profile / "plug-ins" / "gpu-histogram"
    plug_in.mkdir(parents=True, exist_ok=True)
    shutil.copy2(plugin, plug_in / "gpu-histogram")
    cases = tmp / "cases"
    cases.write_text("".join(
        "\t".join([str(IMAGES / f"{png}.png"), (mode or ["NONINTERACTIVE"])[0],
                   f"plug-in-gpu-histogram-{proc}"] + args) + "\n"
        for png, proc, args, _, *mode in CASES))
    env = {k: v for k, v in os.environ.items() if k != "GEGL_PATH"}
    env.update(XDG_DATA_HOME=str(data), GIMP3_DIRECTORY=str(profile),
               GH_LIVE_CASES=str(cases), GH_LIVE_OUT=str(out),
               GH_LIVE_REPORT=str(out / "report"), GH_LIVE_IMAGES=str(IMAGES),
               GH_LIVE_SELECTION=f"{IMAGES / (SELECTION[0] + '.png')} {SELECTION[1]}")
    start = time.time()
    p = subprocess.run(["gimp-console-3", "-i", "--batch-interpreter=python-fu-eval",
                        "-b", "-", "--quit"], env=env, capture_output=True, text=True,
                       stdin=open(HERE / "plugin_live_fu.py"))
    print(f"{name}: {len(CASES)} cases in {time.time() - start:.1f} s")
    report = (out / "report").read_text().split("\n") if (out / "report").exists() else []
    rows = [r.split()[2:] for r in report if r.startswith("case ")]
    if len(rows) != len(CASES):
        print(p.stdout[-3000:], p.stderr[-3000:])
    return out, rows


def srgb_to_linear(v):
    v /= 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def linear_to_srgb(v):
    return 255 * (v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def selection_checks(with_out, without_out):
    """The module's filter under SELECTION's feathered ellipse, live and
    merged at once (the module's run), against the procedure on a
    copy cropped to the selection's bounds (the pixel path's run):
    GIMP gives the module the bounds' pixels, each counted fully, and
    blends the result into the layer by the selection's value in linear
    light (Replace).  (what, ok) pairs."""
    x1, y1, x2, y2, width, height = map(int, (with_out / "sel-bounds").read_text().split())
    mask = array.array("f", (with_out / "sel-mask.raw").read_bytes())
    before = (with_out / "sel-before.raw").read_bytes()
    linear = [srgb_to_linear(float(v)) for v in range(256)]
    checks = []
    for op in ("equalize", "clahe"):
        crop = (without_out / f"sel-{op}-crop.raw").read_bytes()
        for how in ("live", "merged"):
            out = (with_out / f"sel-{op}-{how}.raw").read_bytes()
            outside = inside = edge = 0
            far = []
            for y in range(height):
                for x in range(width):
                    m = mask[y * width + x]
                    i = 3 * (y * width + x)
                    if m <= 0:
                        outside += out[i:i + 3] != before[i:i + 3]
                        continue
                    c = 3 * ((y - y1) * (x2 - x1) + x - x1)
                    if m >= 1:
                        inside += out[i:i + 3] != crop[c:c + 3]
                        continue
                    edge += 1
                    for k in range(3):
                        want = linear_to_srgb(linear[before[i + k]] * (1 - m)
                                              + linear[crop[c + k]] * m)
                        if abs(out[i + k] - want) > 1:
                            far.append((x, y, k, out[i + k], round(want, 2)))
            what = f"{op} {how} under a feathered ellipse"
            checks += [
                (f"{what}: unselected pixels unchanged ({outside} changed)", outside == 0),
                (f"{what}: selected pixels = the procedure on the selection's bounds "
                 f"({inside} differ)", inside == 0),
                (f"{what}: {edge} partly selected pixels blended in linear light, "
                 f"within a level ({len(far)} not: {far[:3]})", edge > 1000 and not far),
            ]
    return checks


def main():
    if os.environ.get("GH_GIMP3_UNAVAILABLE"):
        print("SKIP:", os.environ["GH_GIMP3_UNAVAILABLE"])
        return SKIP
    plugin, module = (Path(a).resolve() for a in sys.argv[1:3])
    if os.environ.get("GH_GIMP3_ENV") and not os.environ.get("GH_INSIDE"):
        env = dict(os.environ, GH_INSIDE="1")
        return subprocess.run(["bash", env["GH_GIMP3_ENV"], "run", "python3", __file__,
                               str(plugin), str(module)], env=env).returncode
    if not shutil.which("gimp-console-3"):
        print("FAIL: no gimp-console-3")
        return 1
    for f in (plugin, module):
        if not f.exists():
            print(f"FAIL: {f} not built")
            return 1
    # A profile kept between runs (GIMP 3.2 takes minutes to make one), in
    # the root itself where the test runs in one.
    profile = (Path("/var/cache/gpu-histogram-tests") if os.environ.get("GH_INSIDE")
               else plugin.parent) / "plugin-live-profile"
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        with_out, with_rows = console_run(plugin, module, profile, tmp, "module")
        without_out, without_rows = console_run(plugin, None, profile, tmp, "pixels")
        if len(with_rows) != len(CASES) or len(without_rows) != len(CASES):
            fails.append("a gimp-console-3 run stopped early")
        for n, (png, proc, args, serves, *mode) in enumerate(CASES):
            if n >= min(len(with_rows), len(without_rows)):
                break
            what = (f"{' '.join([proc] + args)} on {png}" + (f" ({mode[0]})" if mode else "")
                    ).replace(f"{HERE.parent}/", "")
            w, wo = with_rows[n], without_rows[n]
            # status, filters left, filters made, return, live status,
            # listed, unchanged while live, a live argument
            raw = {k: (d / f"{n}-{k}.raw").read_bytes()
                   for d, k in ((with_out, "merged"), (with_out, "live"))}
            plain = (without_out / f"{n}-merged.raw").read_bytes()
            plain_live = (without_out / f"{n}-live.raw").read_bytes()
            fails_ok = serves == "fails"
            # Live kept: listed, unchanged until merged; else merged at
            # once (changed), or failed (unchanged).
            live_kept = serves in ("both", "live")
            kept = "1" if live_kept else "0"
            unchanged = "1" if live_kept or fails_ok else "0"
            checks = [
                ("fails alike with and without the module, nothing made"
                 if fails_ok else "succeeds with and without the module",
                 (w[0] == wo[0] != SUCCESS and w[4] == wo[4] != SUCCESS and w[2] == "0")
                 if fails_ok else (w[0] == wo[0] == SUCCESS and w[4] == wo[4] == SUCCESS)),
                ("merged: no filter left", w[1] == "0" and wo[1] == "0"),
                # One filter made: the module's (binarize's pixel path may
                # make GIMP's threshold: operations.h).
                ("merged through the module" if serves in ("both", "merged")
                 else "merged on the pixel path",
                 w[2] == ("1" if serves in ("both", "merged") else wo[2])),
                ("without the module: no filter made", wo[2] == "0"
                 or proc == "binarize"),
                ("the same return value", w[3] == wo[3]),
                ("merged = the pixel path's, byte for byte", raw["merged"] == plain),
                ("a live argument" if proc != "match"
                 else "no live argument, a script's refused (GIMP keeps no aux filter live)",
                 w[7] == wo[7] == ("none-refused" if proc == "match" else "live")),
                ("live: listed, pixels unchanged until merged" if live_kept
                 else "live asked: applied merged", (w[5], w[6]) == (kept, unchanged)),
                ("live, merged = the pixel path's", raw["live"] == plain),
                ("without the module live works as today",
                 (wo[5], wo[6]) == ("0", "1" if fails_ok else "0") and plain_live == plain),
            ]
            for text, ok in checks:
                print(f"{'ok  ' if ok else 'FAIL'} {what}: {text}")
                if not ok:
                    fails.append(f"{what}: {text} (module {w}, pixels {wo})")
        try:
            checks = selection_checks(with_out, without_out)
        except OSError as e:
            checks = [(f"the module's filter under a selection: {e}", False)]
        for text, ok in checks:
            print(f"{'ok  ' if ok else 'FAIL'} {text}")
            if not ok:
                fails.append(text)
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
