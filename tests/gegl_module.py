#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The GEGL module's operations against the CLI, byte for byte.

    gegl_module.py BUILDDIR

BUILDDIR holds gegl/gpu-histogram-gegl.so, tests/gegl_run and
cli/gpu-histogram-cli of one build.  With GH_GIMP3_ENV and GH_GIMP3 set
(scripts/gimp3-env.sh) the checks run inside that GIMP 3 root, on its
nested build; GH_GIMP3_UNAVAILABLE: skipped (77), saying why.

Checks: the module loads (GEGL_PATH), lists its six operations with the
vocabulary's properties and defaults, the vocabulary's names as their
titles and no menu entry of their own (the plug-in's entries are the
menu); each operation on
the test images (8-bit PNG, gray and RGB, and with a varying alpha) gives
the CLI's bytes under GIMP 3's luminance rule (--luminance linear): what
the GIMP 3 procedures give on 8-bit layers; a request the engine refuses
passes the input through with one warning; a 1/4 blit (a zoomed-out
canvas) maps the scaled-down input with the whole image's count (CLAHE
at each pixel's full-size centre; match: the full render scaled down); a
live filter keeps its count
while its parameters change (rendered in chunks, each step a new node's
bytes) and counts again when its input is painted.  Where gimp-console-3 is (the
roots), GIMP 3 loads the module from the user's GEGL folder, lists the
operations, and each operation on an 8-bit gray and an RGB layer, appended as a live
filter (listed, pixels unchanged) and merged, gives the same bytes, a live
filter edited or painted under re-renders (tests/gegl_live_fu.py), and
the same pixels as the plug-in's procedure there (also at 16 bits and
8-bit linear, and under a rectangle selection), and so does each
operation on the luminance of colour layers in other spaces than sRGB
(Adobe RGB, also in sRGB's tone curve, P3, gAMA and cHRM, ProPhoto
16-bit).  Match (a composer: the reference on its aux input) of each
image to the next one, each mode, equals the CLI's --match with that
--reference; without a reference the input passes through with one
warning; in GIMP, a match filter given a second image's layer
(set_aux_input), merged, equals the procedure with that layer as its
reference.
"""
import fcntl
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

# What scripts and users rely on: names, properties, defaults.
EXPECTED = {
    "gpu-histogram:equalize": {"mode": "each-channel"},
    "gpu-histogram:clahe": {"clip-limit": "2.000000", "tiles-x": "8",
                            "tiles-y": "8", "mode": "luminance"},
    "gpu-histogram:threshold": {"channel": "luminance", "threshold": "-1"},
    "gpu-histogram:posterize": {"channel": "luminance", "classes": "3"},
    "gpu-histogram:match": {"mode": "each-channel"},
    "gpu-histogram:stretch": {"low-percentile": "1.000000",
                              "high-percentile": "99.000000",
                              "mode": "each-channel"},
}

# Each operation's title: its name on the plug-in's menu entry.
TITLES = {
    "gpu-histogram:equalize": "Equalize Histogram",
    "gpu-histogram:clahe": "CLAHE (Local Contrast)",
    "gpu-histogram:threshold": "Binarize (Otsu)",
    "gpu-histogram:posterize": "Posterize (Multi-level Otsu)",
    "gpu-histogram:match": "Match Histogram",
    "gpu-histogram:stretch": "Stretch Contrast (Percentiles)",
}

# (operation, properties, CLI output option, CLI options, colour only)
CASES = [
    ("equalize", ["mode=each-channel"], "--equalize",
     ["--equalize-mode", "channels"], False),
    ("equalize", ["mode=luminance"], "--equalize",
     ["--equalize-mode", "luminance"], False),
    ("clahe", [], "--clahe",
     ["--clahe-params", "2,8,8", "--equalize-mode", "luminance"], False),
    ("clahe", ["mode=each-channel", "clip-limit=3.5", "tiles-x=5",
               "tiles-y=3"], "--clahe",
     ["--clahe-params", "3.5,5,3", "--equalize-mode", "channels"], False),
    # Gray: the luminance is the gray level (the CLI's default there).
    ("threshold", [], "--binarize", [], False),
    ("threshold", ["channel=red", "threshold=100"], "--binarize",
     ["--channel", "red", "--threshold", "100"], True),
    ("posterize", [], "--posterize", ["--multi-otsu", "3"], False),
    ("posterize", ["channel=green", "classes=5"], "--posterize",
     ["--channel", "green", "--multi-otsu", "5"], True),
    ("stretch", [], "--stretch", [], False),
    ("stretch", ["low-percentile=5", "high-percentile=90", "mode=luminance"],
     "--stretch", ["--low-percentile", "5", "--high-percentile", "90",
                   "--mode", "luminance"], False),
]
GRAY = {"camera", "coins"}
# A live filter's steps (tests/gegl_run.c live) and the counts each makes:
# properties that leave the count as it is count nothing, "paint" (the
# input changed) and CLAHE's tiles count again, "zoom" counts nothing.
LIVE = [
    ("threshold", ["threshold=-1", "threshold=100", "threshold=-1", "channel=red",
                   "channel=luminance", "paint", "threshold=120", "zoom"],
     [1, 0, 0, 0, 0, 1, 0, 0]),
    ("equalize", ["mode=each-channel", "mode=luminance", "paint",
                  "mode=each-channel", "zoom"], [1, 0, 1, 0, 0]),
    ("clahe", ["clip-limit=2", "clip-limit=3.5", "mode=each-channel",
               "mode=luminance", "paint", "tiles-x=5", "zoom", "clip-limit=1"],
     [1, 0, 0, 0, 1, 1, 0, 0]),
    ("posterize", ["classes=3", "classes=5,channel=green", "paint", "zoom"],
     [1, 0, 1, 0]),
]
# GIMP's checks on one gray and one colour image: each filter and
# procedure costs seconds there, and CI time is tight.
IN_GIMP = {"camera", "coffee"}


def run(cmd, env=None, stdin=None):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                       env=env, input=stdin)
    return p.returncode, p.stdout, p.stderr


def read_list(driver, env, fails):
    """The module's operations, their properties and defaults against
    EXPECTED."""
    rc, out, err = run([driver, "list"], env)
    if rc != 0:
        fails.append(f"gegl_run list: exit {rc}: {err.strip()}")
        return
    ops, current = {}, None
    for line in out.splitlines():
        if not line.startswith("  "):
            current, title, menu = line.split("\t")
            ops[current] = {}
            # One menu entry per operation: the plug-in's, under the
            # vocabulary's name, which is the operation's title.
            if menu:
                fails.append(f"{current}: a menu entry of its own, {menu!r}")
            if title != TITLES.get(current):
                fails.append(f"{current}: title {title!r}, expected {TITLES.get(current)!r}")
            continue
        name, _type, default, *_ = line.strip().split("\t")
        ops[current][name] = default
    if set(ops) != set(EXPECTED):
        fails.append(f"operations {sorted(ops)}, expected {sorted(EXPECTED)}")
    for op, props in EXPECTED.items():
        if ops.get(op) != props:
            fails.append(f"{op}: properties {ops.get(op)}, expected {props}")


def differ(a, b):
    if not Path(a).exists():
        return "no result"
    a, b = Path(a).read_bytes(), Path(b).read_bytes()
    if a == b:
        return None
    if len(a) != len(b):
        return f"sizes {len(a)} and {len(b)}"
    return f"{sum(x != y for x, y in zip(a, b))} bytes differ"


# The plug-in's procedure of each operation.
PROCEDURES = {"gpu-histogram:equalize": "plug-in-gpu-histogram-equalize",
              "gpu-histogram:clahe": "plug-in-gpu-histogram-clahe",
              "gpu-histogram:threshold": "plug-in-gpu-histogram-binarize",
              "gpu-histogram:posterize": "plug-in-gpu-histogram-multi-otsu",
              "gpu-histogram:stretch": "plug-in-gpu-histogram-stretch"}
# Other precisions: the colour image at 16 bits (1024 bins) and linear at
# 8 bits (floats, 256 bins, linear light as GIMP 3 bins it), compared with
# the procedure only (the CLI reads 8-bit perceptual).  Float linear
# passed too (1024 bins, linear light): left out for CI time.
PRECISE = ("coffee", ["U16_NON_LINEAR", "U8_LINEAR"])
# A rectangle selected on it: GIMP crops a filter's input to the
# selection's bounds, the procedure counts the selection.
SELECTION = "37,21,301,203"
# Colour layers in a space other than sRGB (plugin_profiles.py's
# fixtures: Adobe RGB, also converted to sRGB's tone curve ("R~G~B~"),
# Display P3 with and without alpha, a PNG's gAMA and cHRM, ProPhoto at 16
# bits), where GIMP 3's luminance is the space's (babl's): each operation
# on the luminance as a live filter, merged, against the procedure.  babl
# picks a conversion's path per process, by timing (plugin_profiles.py),
# and GIMP's process and the plug-in's may pick paths whose floats differ
# in the last bits: a luminance lands a bin apart, a colour a level.  So,
# as plugin_profiles.py's DEEP_PIXELS, at most 2 pixels apart (seen: 1
# pixel 1 level apart, CLAHE on gama_chrm.png, in 2 runs of 6; else
# exact); at 16 bits, where a bin apart moves equalize's and CLAHE's maps
# (seen: up to 1.1e-4 on 124 pixels, 3.1e-4 on 9, of 19200), at most 2
# pixels more than a whole 1024-bin step (~1e-3) apart.
# (image, precision, tolerance: "PIXELS,LIMIT", gegl_gimp_fu.py)
PROFILED = HERE / "fixtures" / "profiled"
IN_SPACE = [("adobe.png", "", "2,0"), ("adobe.png", "U8_PERCEPTUAL", "2,0"),
            ("p3.jpg", "", "2,0"), ("p3_alpha.png", "", "2,0"),
            ("gama_chrm.png", "", "2,0"), ("prophoto16.png", "", "2,1e-3")]
ON_LUMINANCE = [("gpu-histogram:equalize", ["mode=luminance"]),
                ("gpu-histogram:clahe", ["mode=luminance"]),
                ("gpu-histogram:threshold", ["channel=luminance"]),
                ("gpu-histogram:posterize", ["channel=luminance"]),
                ("gpu-histogram:stretch", ["mode=luminance"])]


def match_jobs(cli, tmp):
    """Match of each image (and with a varying alpha) to the next one's
    histogram, each mode, against the CLI's --match: (gegl_run lines,
    jobs).  The loads of the images are the main loop's lines."""
    lines, jobs = [], []
    pngs = sorted(IMAGES.glob("*.png"))
    for png, ref in zip(pngs, pngs[1:] + pngs[:1]):
        for alpha in ([], ["--alpha"]):
            stem = png.stem + ("-a" if alpha else "")
            for mode, cli_mode in (("each-channel", "channels"), ("luminance", "luminance")):
                mine, theirs = (tmp / f"{stem}-match-{ref.stem}-{mode}-{who}.pnm"
                                for who in ("gegl", "cli"))
                lines.append(["apply-aux", "gpu-histogram:match", png, ref, mine]
                             + alpha + [f"mode={mode}"])
                jobs.append(dict(what=f"{stem} gpu-histogram:match {ref.stem} mode={mode}",
                                 png=png, ref=ref, alpha=alpha, mode=mode, mine=mine,
                                 theirs=theirs,
                                 cli=[cli, "--backend", "cpu", "--luminance", "linear",
                                      "--match", theirs, "--reference",
                                      tmp / f"{ref.stem}.pnm", "--mode", cli_mode,
                                      tmp / f"{stem}.pnm"]))
    return lines, jobs


def match_gimp_cases(jobs, tmp):
    """The match jobs without alpha on IN_GIMP's images, for
    gegl_gimp_fu.py (GH_GEGL_MATCH_CASES); the colour image's each-channel
    one again with its reference at 16 bits (counted as floats in the
    image's 256 bins), and its luminance one to and from an Adobe RGB image
    (compared with the procedure only): their names, and [(what, GIMP's
    result, the CLI's)]."""
    lines, names, compared = [], [], []
    for j in jobs:
        if j["alpha"] or j["png"].stem not in IN_GIMP:
            continue
        out = j["theirs"].with_name(j["theirs"].name.replace("cli", "gimp"))
        lines.append("\t".join(map(str, [j["png"], j["ref"], "", j["mode"], out, ""])))
        names.append(f"GIMP {j['what']}")
        compared.append((f"GIMP {j['what']}", out, j["theirs"]))
        if j["png"].stem == PRECISE[0] and j["mode"] == "each-channel":
            lines.append("\t".join(map(str, [j["png"], j["ref"], PRECISE[1][0], j["mode"],
                                              "", ""])))
            names.append(f"GIMP {j['what']} reference {PRECISE[1][0]}")
        # Luminance outside sRGB (babl's, as IN_SPACE's, within its
        # tolerance): to an Adobe RGB reference, and of an Adobe RGB
        # image (its luminance view).
        if j["png"].stem == PRECISE[0] and j["mode"] == "luminance":
            adobe, tolerance = IN_SPACE[0][0], IN_SPACE[0][2]
            for png, ref in ((j["png"], PROFILED / adobe), (PROFILED / adobe, j["png"])):
                lines.append("\t".join(map(str, [png, ref, "", j["mode"], "", tolerance])))
                names.append(f"GIMP {png.name} gpu-histogram:match {ref.name} "
                             "mode=luminance")
    (tmp / "match-cases").write_text("\n".join(lines) + "\n")
    return names, compared


def in_gimp(build, jobs, tmp, fails, matches=()):
    """The jobs without alpha on IN_GIMP's images as live filters in GIMP
    3, merged, each compared with the procedure there; returns [(what,
    GIMP's result, the CLI's)] for the 8-bit ones."""
    console = shutil.which("gimp-console-3")
    if not console:
        print("no gimp-console-3 here: the GIMP checks run in the roots")
        return []
    # The user's GEGL folder, as -Dgimp_plugin_install=user installs it.
    folder = tmp / "data" / "gegl-0.4" / "plug-ins"
    folder.mkdir(parents=True)
    shutil.copy(build / "gegl" / "gpu-histogram-gegl.so", folder)
    # A profile kept between runs: GIMP 3.2 spends minutes making a new one
    # on a loaded 2-core machine (it queries every plug-in); the module is
    # not in it, the plug-in is (copied anew: GIMP queries it again).  In a
    # root, in the root itself, which CI keeps.
    profile = (Path("/var/cache/gpu-histogram-tests") if os.environ.get("GH_INSIDE")
               else build / "tests") / "gegl-gimp-profile"
    plug_in = profile / "plug-ins" / "gpu-histogram"
    plug_in.mkdir(parents=True, exist_ok=True)
    cases, compared, names, seen = [], [], [], set()
    for j in jobs:
        if j["alpha"] or j["png"].stem not in IN_GIMP:
            continue
        # Each procedure call starts the plug-in (a second or two here):
        # all cases on the colour image, the first of each operation on
        # its variants and on the gray one.
        first = (j["png"], j["op"]) not in seen
        seen.add((j["png"], j["op"]))
        if not first and j["png"].stem != PRECISE[0]:
            continue
        out = j["theirs"].with_name(j["theirs"].name.replace("cli", "gimp"))
        variants = [("", "")]
        if j["png"].stem == PRECISE[0] and first:
            variants += [(p, "") for p in PRECISE[1]] + [("", SELECTION)]
        for precision, selection in variants:
            cases.append("\t".join([str(j["png"]), precision, selection, j["op"],
                                    PROCEDURES[j["op"]],
                                    "" if precision or selection else str(out), ""]
                                   + j["props"]))
            names.append(f"{j['what']} {precision or 'u8'}"
                         + (f" selection {selection}" if selection else ""))
        compared.append((f"GIMP {j['what']}", out, j["theirs"]))
    for image, precision, tolerance in IN_SPACE:
        for op, props in ON_LUMINANCE:
            cases.append("\t".join([str(PROFILED / image), precision, "", op,
                                    PROCEDURES[op], "", tolerance] + props))
            names.append(f"{image} {precision or 'as stored'} {op} {' '.join(props)}")
    (tmp / "cases").write_text("\n".join(cases) + "\n")
    match_names, match_compared = match_gimp_cases(matches, tmp)
    env = {k: v for k, v in os.environ.items() if k != "GEGL_PATH"}
    # BABL_LUT=0, as the plug-in tests run GIMP 3 (plugin_gimp.py): babl
    # switches a conversion to a look-up table once a process has used it
    # enough, whose floats may differ from the direct ones in the last
    # bits, so GIMP's process and the plug-in's would read a profiled
    # layer's luminance a bin apart now and then.
    env.update(XDG_DATA_HOME=str(tmp / "data"), GIMP3_DIRECTORY=str(profile),
               GH_GEGL_CASES=str(tmp / "cases"), GH_GEGL_REPORT=str(tmp / "report"),
               GH_GEGL_MATCH_CASES=str(tmp / "match-cases"),
               GH_GEGL_LIVE_IMAGE=str(IMAGES / "camera.png"), BABL_LUT="0")
    start = time.time()
    # One run at a time in the kept profile: builds of other worktrees test
    # in the same root, and each copies its own plug-in there.
    with open(profile.parent / "gegl-gimp-profile.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # Copied beside and renamed: a GIMP still running the old one (a
        # run without the lock) keeps its file.
        shutil.copy2(build / "plugin" / "gimp3" / "gpu-histogram", plug_in / "new")
        os.replace(plug_in / "new", plug_in / "gpu-histogram")
        rc, out, err = run([console, "-i", "--batch-interpreter=python-fu-eval",
                            "-b", "-", "--quit"], env,
                           stdin=(HERE / "gegl_gimp_fu.py").read_text()
                           + (HERE / "gegl_live_fu.py").read_text())
    report = (tmp / "report").read_text().splitlines() if (tmp / "report").exists() else []
    live = dict(line.split()[1:] for line in report if line.startswith("live "))
    report = [line for line in report if not line.startswith("live ")]
    for check, what in (("edited", "a live threshold's level changed after it was "
                         "appended: merged at the new level"),
                        ("painted", "white filled under a live equalize: the merge "
                         "equalizes the new pixels")):
        print(f"{'ok  ' if live.get(check) == '1' else 'FAIL'} GIMP: {what}")
        if live.get(check) != "1":
            fails.append(f"GIMP: {what}: {live.get(check, 'not run')}")
    print(f"GIMP: {len(cases)} filters and procedures in {time.time() - start:.1f} s")
    if len(report) != 1 + len(EXPECTED) + len(cases) + len(match_names):
        fails.append(f"GIMP's batch stopped (exit {rc}): {err.strip()[-2000:]}")
    for line in report:
        word, rest = line.split(" ", 1)
        if word == "ops" and rest.split() != sorted(EXPECTED):
            fails.append(f"GIMP sees {rest}")
        elif word == "menu" and rest.split(" ", 1)[1] != "None":
            fails.append(f"GIMP sees a menu path: {rest}")
        elif word == "case":
            n, listed, unchanged, changed, same, detail = rest.split()
            what = f"GIMP {names[int(n)]}"
            print(f"{'ok  ' if same == '1' else 'FAIL'} {what}: merged = procedure "
                  f"({detail})")
            if listed + unchanged + changed != "111":
                fails.append(f"{what}: not listed as a live filter, pixels changed "
                             "before the merge, or not after")
            if same != "1":
                fails.append(f"{what}: merged filter differs from the procedure")
        elif word == "match":
            n, listed, unchanged, changed, same = rest.split()
            what = match_names[int(n)]
            # GIMP 3.0 and 3.2 refuse a filter with an aux input live (it
            # is merged directly then): either way the merged pixels are
            # the procedure's.
            how = "live until merged" if listed + unchanged == "11" else "refused live, merged"
            print(f"{'ok  ' if same == '1' else 'FAIL'} {what} ({how}): merged = procedure")
            if changed != "1" or same != "1":
                fails.append(f"{what}: merged filter unchanged or differs from the "
                             "procedure")
    return compared + match_compared


def main():
    if os.environ.get("GH_GIMP3_UNAVAILABLE"):
        print("SKIP:", os.environ["GH_GIMP3_UNAVAILABLE"])
        return SKIP
    build = Path(sys.argv[1]).resolve()
    if os.environ.get("GH_GIMP3_ENV") and not os.environ.get("GH_INSIDE"):
        # Inside the root, on its nested build.
        env = dict(os.environ, GH_INSIDE="1")
        return subprocess.run(["bash", env["GH_GIMP3_ENV"], "run", "python3",
                               __file__, str(build)], env=env).returncode
    driver, cli = build / "tests" / "gegl_run", build / "cli" / "gpu-histogram-cli"
    module = build / "gegl"
    for f in (driver, cli, module / "gpu-histogram-gegl.so"):
        if not f.exists():
            print(f"FAIL: {f} not built")
            return 1
    # GEGL_PATH replaces GEGL's own folder: both, for gegl:load.
    _, ops, _ = run(["pkg-config", "--variable=pluginsdir", "gegl-0.4"])
    env = dict(os.environ, GEGL_PATH=os.pathsep.join([str(module), ops.strip()]))
    _, version, _ = run(["pkg-config", "--modversion", "gegl-0.4"])
    print(f"GEGL {version.strip() or '?'}")
    start = time.time()
    fails = []
    read_list(driver, env, fails)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # Every image and case through one gegl_run (GEGL starts once).
        lines, jobs = [], []
        for png in sorted(IMAGES.glob("*.png")):
            for alpha in ([], ["--alpha"]):
                stem = png.stem + ("-a" if alpha else "")
                src = tmp / f"{stem}.pnm"
                lines.append(["load", png, src] + alpha)
                for k, (op, props, out_opt, opts, colour) in enumerate(CASES):
                    if colour and png.stem in GRAY:
                        continue
                    op = f"gpu-histogram:{op}"
                    mine, theirs = (tmp / f"{stem}-{k}-{who}.pnm" for who in ("gegl", "cli"))
                    lines.append(["apply", op, png, mine] + alpha + props)
                    jobs.append(dict(what=f"{stem} {op} {' '.join(props)}", png=png,
                                     alpha=alpha, op=op, props=props, mine=mine,
                                     theirs=theirs,
                                     cli=[cli, "--backend", "cpu", "--luminance",
                                          "linear", out_opt, theirs] + opts + [src]))
        more_lines, matches = match_jobs(cli, tmp)
        lines += more_lines
        rc, out, err = run([driver, "batch"], env,
                           stdin="".join("\t".join(map(str, l)) + "\n" for l in lines))
        if rc or out.split() != ["0"] * len(lines) or "WARNING" in err:
            fails.append(f"gegl_run batch: exit {rc}, statuses {out.split()}: {err.strip()}")
        # A zoomed-out view (a 1/4 blit, mipmap rendering on): the point
        # operations map GEGL's scaled-down input with the whole image's
        # count (each pixel as the full render maps that input pixel),
        # CLAHE each pixel as the full render maps its centre; match shows
        # the full render scaled down.
        for op in EXPECTED:
            how = {"gpu-histogram:clahe": ["centre"],
                   "gpu-histogram:match": []}.get(op, ["point"])
            for image in ("coffee.png", "camera.png"):
                rc, out, err = run([driver, "zoom", op, IMAGES / image] + how, env)
                got = out.split()
                if rc or not got or got[0] != "0" or (how and int(got[1]) < 100):
                    fails.append(f"{op} at 1/4 on {image}: exit {rc}, differs by up "
                                 f"to {out.strip()} (largest difference, pixels "
                                 f"checked): {err.strip()}")
        # A live filter keeps its count: a parameter that does not change
        # it maps again without counting, in chunks as a canvas asks, and
        # gives a new node's bytes; the input painted counts again.
        for op, steps, counts in LIVE:
            for image in ("coffee.png", "camera.png"):
                rc, out, err = run([driver, "live", "gpu-histogram:" + op,
                                    IMAGES / image] + steps, env)
                got = [l.split() for l in out.splitlines()]
                want = [[step, str(c), "0"] for step, c in zip(steps, counts)]
                if rc or got != want:
                    fails.append(f"{op} live on {image}: exit {rc}, steps (counts, "
                                 f"bytes differing from a new node) {got}, expected "
                                 f"{want}: {err.strip()}")
        # A request the engine refuses (the alpha of a layer without
        # one): the input passes through, with one warning, no abort.
        refused = tmp / "refused.pnm"
        rc, _, err = run([driver, "apply", "gpu-histogram:threshold",
                          IMAGES / "coffee.png", refused, "channel=alpha"], env)
        if rc or err.count("WARNING") != 1 or differ(refused, tmp / "coffee.pnm"):
            fails.append(f"threshold on a missing alpha: exit {rc}, not the input "
                         f"with one warning: {err.strip()}")
        compared = []
        for j in jobs:
            rc, _, err = run(j["cli"])
            if rc:
                fails.append(f"{j['what']}: CLI exit {rc}: {err.strip()}")
            else:
                compared.append((j["what"], j["mine"], j["theirs"]))
        for j in matches:
            rc, _, err = run(j["cli"])
            if rc:
                fails.append(f"{j['what']}: CLI exit {rc}: {err.strip()}")
            else:
                compared.append((j["what"], j["mine"], j["theirs"]))
        # Nothing on the aux input: the input, with one warning.
        alone = tmp / "match-alone.pnm"
        rc, _, err = run([driver, "apply", "gpu-histogram:match",
                          IMAGES / "coffee.png", alone], env)
        if rc or err.count("WARNING") != 1 or differ(alone, tmp / "coffee.pnm"):
            fails.append(f"match without a reference: exit {rc}, not the input "
                         f"with one warning: {err.strip()}")
        print(f"GEGL: {len(compared)} results in {time.time() - start:.1f} s")
        compared += in_gimp(build, jobs, tmp, fails, matches)
        for what, mine, theirs in compared:
            d = differ(mine, theirs)
            print(f"{'ok  ' if not d else 'FAIL'} {what}" + (f": {d}" if d else ""))
            if d:
                fails.append(f"{what}: {d}")
    print(f"{len(compared)} comparisons in {time.time() - start:.1f} s")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
