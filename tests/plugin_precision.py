#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The plug-in on every precision GIMP offers besides 8-bit perceptual
(plugin_stats.py and plugin_apply.py cover that one), in one private
gimp-console (GIMP 2.10 or 3; GIMP 3 calls GAMMA precisions NON-LINEAR):

- statistics (count, mean, median, std-dev per channel) equal to
  gimp-drawable-histogram's on an RGB, an RGBA and a gray photo, and under a
  feathered selection on 16-bit layers; the 256-level histogram is GIMP's
  1024 bins added up by level, and the CSV export holds the same numbers;
- equalize (both modes) and binarize run at every precision; equalize of a
  ramp, read back in the layer's own format at every precision above 8
  bits, keeps distinct samples distinct and in order and holds far more
  than 256 levels (so it was written back at the layer's precision);
- equalize of a smooth 16-bit ramp makes it linear (through a 16-bit PNG);
- binarize and both equalizes keep alpha bit for bit on 32-bit integer and
  double layers with partial alpha, read back in the layer's own format (a
  float strip would round 32-bit alpha; GIMP's conversions leave double alpha
  float-exact, so there the check guards the 8-byte path);
- binarize on float layers writes only 0 and 1, white exactly where the level
  is above the threshold.

Script-Fu's precision state: once a command has called gimp-image-convert-
precision (or -get-precision), gimp-drawable-histogram on that command's
>8-bit images returns linear-light statistics on 0..1.  So each image is
loaded once and saved as XCF at every precision in one command, and compared
in later ones, whose
gimp-drawable-histogram gives GIMP's perceptual numbers on 0..255 (each -b is
its own Script-Fu process).  GIMP 3's PDB always gives 0..1 above 8 bits:
its gh-gimp-histogram scales them (plugin_gimp.py).

Usage: plugin_precision.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import sys

from plugin_gimp import ROOT, GimpConsole, Tally, parse_args, require_gimp, scm_str
from plugin_stats import RGB, GRAY, check_export, check_stats, close

IMAGES = ROOT / "testimages"
FIX = ROOT / "tests" / "fixtures" / "gimp"
PRECISIONS = ["U8-LINEAR", "U16-LINEAR", "U16-GAMMA", "U32-LINEAR", "U32-GAMMA",
              "HALF-LINEAR", "HALF-GAMMA", "FLOAT-LINEAR", "FLOAT-GAMMA",
              "DOUBLE-LINEAR", "DOUBLE-GAMMA"]
# name -> (file, channels GIMP is asked for)
PHOTOS = {"chelsea": (IMAGES / "chelsea.png", RGB),
          "rgba": (FIX / "rgba_partial.png", [0, 1, 2, 3, 4, 5]),
          "camera": (IMAGES / "camera.png", GRAY)}
FEATHERED = {"U16-GAMMA", "U16-LINEAR", "FLOAT-LINEAR"}
RAMP_WIDTH = 4096
RAMP_STEP = 8  # every 8th ramp sample is read back in the layer's format
THRESHOLD = 100  # the fixed binarize level on the float ramp
# Layers whose alpha a float strip would round; rgba_partial is read back
# every ALPHA_STEP pixels, in rows and columns.
ALPHA_PRECISIONS = ["U32-LINEAR", "DOUBLE-GAMMA"]
ALPHA_STEP = 20
DTYPE = {"U16": "<u2", "U32": "<u4", "HALF": "<f2", "FLOAT": "<f4", "DOUBLE": "<f8"}


def bins_of(precision):
    return 256 if precision.startswith("U8") else 1024


def level_bins(level, bins=1024):
    """The bins that the 256-level histogram adds up into `level`."""
    ks = [k for k in range(bins) if (2 * k * 255 + bins - 1) // (2 * (bins - 1)) == level]
    return ks[0], ks[-1]


def write_ramps(tmp):
    """A 16-bit gray ramp, dense in the shadows (so equalize moves it), and
    the same ramp as RGB with R = G = B."""
    import cv2
    import numpy as np
    x = np.arange(RAMP_WIDTH) / (RAMP_WIDTH - 1)
    ramp = np.round(65535 * x ** 2).astype(np.uint16)
    gray = np.vstack([ramp, ramp])
    cv2.imwrite(str(tmp / "ramp.png"), gray)
    cv2.imwrite(str(tmp / "ramp-rgb.png"), np.dstack([gray] * 3))
    return ramp


def commands(tmp, host):
    def load(file):
        return f"(let* ((l (gh-load {scm_str(file)})) (img (car l)) (drw (cadr l)))"

    def out(name):
        return scm_str(tmp / name)

    def rows(tag, width, height, step):
        return "".join(f"(gh-row \"{tag}\" drw {y} 0 {width} {step})" for y in range(0, height, step))

    # gimp-drawable-get-pixel gives 8 bits to a command in which no call has
    # enabled Script-Fu's precision state, the layer's own format after one.
    own_format = "(gimp-image-get-precision img)"

    cmds = {}
    # Each source loaded once (a PNG load is a plug-in run: the slow part of
    # a command), then saved as XCF at every precision (GIMP's own format:
    # quick to load in the commands below).
    sources = {name: file for name, (file, _) in PHOTOS.items()}
    sources["ramp"] = tmp / "ramp.png"
    for name, file in sources.items():
        body = ""
        for p in PRECISIONS:
            # ramp.png is U16-GAMMA already: GIMP refuses converting to it.
            convert = ("" if (name, p) == ("ramp", "U16-GAMMA") else
                       f"(gimp-image-convert-precision img PRECISION-{host.precision(p)})")
            body += ("(let* ((img (car (gimp-image-duplicate src)))"
                     " (drw (gh-active img)))"
                     f"{convert}(gh-save img drw {out(f'{name}-{p}.xcf')})(gimp-image-delete img))")
        cmds[f"{name}/convert"] = f"(let ((src (car (gh-load {scm_str(file)})))) {body})"
    for p in PRECISIONS:
        # Applying on the converted photo (here the precision state no longer matters).
        cmds[f"{p}/apply"] = (
            load(tmp / f"chelsea-{p}.xcf") +
            "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
            "(gh-equalize RUN-NONINTERACTIVE img drw 1)"
            "(gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE img drw 5 -1))"
            f"(gh-save img drw {out(f'bin-{p}.png')}))")
        if bins_of(p) == 1024:
            # The 16-bit one is also saved to check the curve's shape.
            save = f"(gh-save img drw {out('ramp-eq.png')})" if p == "U16-GAMMA" else ""
            cmds[f"{p}/ramp"] = (load(tmp / f"ramp-{p}.xcf") + own_format
                                 + rows("before", RAMP_WIDTH, 1, RAMP_STEP)
                                 + "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
                                 + rows("after", RAMP_WIDTH, 1, RAMP_STEP) + save + ")")
    for p in ALPHA_PRECISIONS:
        def read(tag):
            return rows(tag, 451, 300, ALPHA_STEP)
        cmds[f"{p}/alpha"] = (load(tmp / f"rgba-{p}.xcf") + own_format + read("before")
                              + "(gh-binarize RUN-NONINTERACTIVE img drw 5 -1)" + read("binarize")
                              + "(gh-equalize RUN-NONINTERACTIVE img drw 0)" + read("equalize 0")
                              + "(gh-equalize RUN-NONINTERACTIVE img drw 1)" + read("equalize 1")
                              + ")")
    for p in PRECISIONS:
        for name, (_, chans) in PHOTOS.items():
            tag = f"{p}/{name}"
            ranges = ""
            if name == "chelsea" and bins_of(p) == 1024:
                # GIMP's counts over the 1024-bin ranges that make up a few levels.
                for level in (0, 1, 60, 127, 128, 200, 254, 255):
                    k0, k1 = level_bins(level)
                    ranges += (f"(gh-say \"RANGE\" {level} (car (cddddr (gh-gimp-histogram "
                               f"drw HISTOGRAM-VALUE {k0 / 1023:.9f} {k1 / 1023:.9f}))))")
            cmds[tag] = (load(tmp / f"{name}-{p}.xcf") + f"(gh-stats \"{tag}\" img drw)"
                         f"(gh-gimp-stats \"{tag}\" drw '({' '.join(map(str, chans))})) {ranges})")
        if p in FEATHERED:
            tag = f"{p}/chelsea/feathered"
            cmds[tag] = (load(tmp / f"chelsea-{p}.xcf") + "(gh-select img '(ellipse 60 30 300 220))"
                         f"(gh-stats \"{tag}\" img drw)(gh-gimp-stats \"{tag}\" drw '(0 1 2 3 5)))")
    cmds["U16-GAMMA/export"] = (load(tmp / "chelsea-U16-GAMMA.xcf") +
                                f"(gh-export RUN-NONINTERACTIVE img drw {out('hist.csv')})"
                                "(gh-stats \"U16-GAMMA/export\" img drw))")
    cmds["U16-GAMMA/equalize luminance"] = (load(tmp / "chelsea-U16-GAMMA.xcf") +
                                            "(gh-equalize RUN-NONINTERACTIVE img drw 1)"
                                            f"(gh-save img drw {out('chelsea-eq-lum16.png')}))")
    cmds["ramp rgb equalize luminance"] = (load(tmp / "ramp-rgb.png") +
                                           "(gh-equalize RUN-NONINTERACTIVE img drw 1)"
                                           f"(gh-save img drw {out('ramp-rgb-eq.png')}))")
    cmds["float ramp binarize"] = (load(tmp / "ramp-FLOAT-GAMMA.xcf") +
                                   "(gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE "
                                   f"img drw 0 {THRESHOLD}))"
                                   f"(gh-save img drw {out('ramp-bin.png')}))")
    return cmds


def main():
    host, plugin = parse_args("plugin_precision.py")
    require_gimp(host)
    import cv2
    import numpy as np
    t = Tally()
    with GimpConsole(plugin, host) as s:
        tmp = s.tmp
        ramp = write_ramps(tmp)
        out = s.run(commands(tmp, host))
        for tag, chunk in out.items():
            if tag.endswith(("/convert", "/ramp", "/alpha")) or tag == "ramp rgb equalize luminance":
                t.check(f"{tag}: ran", chunk.ok, chunk.text)

        # (a) statistics, (e) under a feathered selection
        for p in PRECISIONS:
            for name, (_, chans) in PHOTOS.items():
                got = check_stats(t, f"{p}/{name}", out[f"{p}/{name}"], chans)
                if got and name == "chelsea" and bins_of(p) == 1024:
                    h = got[1]
                    ranges = {int(f[0]): float(f[1]) for f in out[f"{p}/{name}"].fields("RANGE")}
                    bad = [f"level {lv}: {h[lv]} != GIMP {c}" for lv, c in ranges.items()
                           if not close(h[lv], c)]
                    t.check(f"{p}/{name}: each level = GIMP's count over its 1024-bin range",
                            len(ranges) == 8 and not bad, "; ".join(bad) or f"{len(ranges)} ranges")
            if p in FEATHERED:
                tag = f"{p}/chelsea/feathered"
                got = check_stats(t, tag, out[tag], RGB)
                if got:
                    t.check(f"{tag}: partial weights counted", 0 < got[0][0] < 451 * 300
                            and got[0][0] != int(got[0][0]), f"count {got[0][0]}")
        got = check_stats(t, "U16-GAMMA/export", out["U16-GAMMA/export"], None)
        if got:
            check_export(t, tmp / "hist.csv", got[1])

        # (b) applied at every precision; (d) binarize writes only black and white
        thresholds = []
        for p in PRECISIONS:
            chunk = out[f"{p}/apply"]
            t.check(f"{p}/apply: ran", chunk.ok, chunk.text)
            thresholds.append(f"{p} {chunk.fields('T')[0][0] if chunk.fields('T') else '?'}")
            img = cv2.imread(str(tmp / f"bin-{p}.png"), cv2.IMREAD_UNCHANGED)
            # The PNG's depth is GIMP's export choice (GIMP 3 writes 8-bit
            # linear layers as 16-bit PNG): black and white are its extremes.
            top = 0 if img is None else np.iinfo(img.dtype).max
            t.check(f"{p}: binarized PNG holds only 0 and its white",
                    img is not None and img.max() == top and np.isin(img, (0, top)).all(),
                    "unreadable" if img is None else f"{img.dtype}, values {np.unique(img)[:6]}")
        print("     Otsu on luminance after both equalizes:", ", ".join(thresholds))

        check_luminance_equalize(t, out["U16-GAMMA/equalize luminance"], tmp / "chelsea-eq-lum16.png",
                                 host.luminance)
        for p in PRECISIONS:
            if bins_of(p) == 1024:
                check_ramp_kept(t, p, out[f"{p}/ramp"])
        for p in ALPHA_PRECISIONS:
            check_alpha_kept(t, p, out[f"{p}/alpha"])

        # (c) a smooth ramp stays smooth
        for tag, name in (("U16-GAMMA/ramp", "ramp-eq.png"),
                          ("ramp rgb equalize luminance", "ramp-rgb-eq.png")):
            img = cv2.imread(str(tmp / name), cv2.IMREAD_UNCHANGED)
            if img is None or img.dtype != np.uint16:
                t.check(f"{tag}: 16-bit result", False, "unreadable" if img is None else str(img.dtype))
                continue
            res = img[0] if img.ndim == 2 else img[0, :, 0]
            n_in, n_out = len(np.unique(ramp)), len(np.unique(res))
            t.check(f"{tag}: distinct levels kept ({n_out} of {n_in})", n_out >= 0.9 * n_in)
            t.check(f"{tag}: monotonic", (np.diff(res.astype(int)) >= 0).all())
            # The ramp is x^2: its distribution is sqrt, so equalized it is
            # about x, in the light the equalized channel is binned in (GIMP
            # 3's luminance: linear light).
            light = srgb_decode if tag.endswith("luminance") and host.luminance == "linear" else None
            out_level = light(res / 65535) if light else res / 65535
            dev = np.abs(out_level - np.arange(RAMP_WIDTH) / (RAMP_WIDTH - 1)).max()
            # In linear light the darkest 8% of the ramp share the lowest of
            # the 1024 bins, whose count the curve spreads linearly: 0.05.
            t.check(f"{tag}: equalized to a linear ramp (largest deviation {dev:.4f})",
                    dev < (0.05 if light else 0.02))
            if img.ndim == 3:
                t.check(f"{tag}: stays gray", (img[..., 0] == img[..., 1]).all()
                        and (img[..., 1] == img[..., 2]).all())

        chunk = out["float ramp binarize"]
        t.check("float ramp binarize: ran, threshold as given",
                chunk.ok and chunk.fields("T") == [[str(THRESHOLD)]], chunk.text)
        img = cv2.imread(str(tmp / "ramp-bin.png"), cv2.IMREAD_UNCHANGED)
        if img is None:
            t.check("float ramp binarize: result", False, "unreadable")
        else:
            # GIMP's bin of each sample, in float as the engine computes it
            pos = (ramp.astype(np.float32) / np.float32(65535)) * np.float32(1023)
            clear = np.abs(pos - np.floor(pos) - 0.5) > 1e-3  # not on a rounding edge
            want = np.where(np.rint(pos) > THRESHOLD * 1023 // 255, 65535, 0)
            t.check("float ramp binarize: only 0 and 65535", np.isin(img, (0, 65535)).all(),
                    f"{img.dtype}, {np.unique(img)[:6]}")
            t.check(f"float ramp binarize: white exactly where the level is above {THRESHOLD}",
                    (img[0][clear] == want[clear]).all(),
                    f"{(img[0][clear] != want[clear]).sum()} samples differ")
    t.finish()


def samples(chunk, tag, precision):
    """The samples of the rows read under `tag`, in the layer's own format."""
    import numpy as np
    data = b"".join(bytes(int(b) for b in f[2].split()) for f in chunk.fields("ROW") if f[0] == tag)
    return np.frombuffer(data, dtype=DTYPE[precision.split("-")[0]])


def check_ramp_kept(t, p, chunk):
    """Equalize at precision p: the ramp read back in the layer's format."""
    import numpy as np
    tag = f"{p}/ramp equalize"
    before, after = samples(chunk, "before", p), samples(chunk, "after", p)
    if len(before) != RAMP_WIDTH // RAMP_STEP or len(after) != len(before):
        t.check(f"{tag}: read back", False, f"{len(before)} and {len(after)} samples")
        return
    order = np.argsort(before, kind="stable")
    b, a = before[order].astype(np.float64), after[order].astype(np.float64)
    rising = np.diff(b) > 0
    t.check(f"{tag}: distinct samples stay distinct and in order",
            (np.diff(a)[rising] > 0).all() and (np.diff(a)[~rising] == 0).all(),
            f"{(np.diff(a)[rising] <= 0).sum()} of {rising.sum()} rising steps not rising")
    t.check(f"{tag}: written at the layer's precision ({len(np.unique(after))} levels, 8 bits hold 256)",
            len(np.unique(after)) > 256)


def check_alpha_kept(t, p, chunk):
    """rgba_partial at precision p: alpha bit for bit after each operation."""
    import numpy as np
    n = -(-451 // ALPHA_STEP) * -(-300 // ALPHA_STEP)
    alpha = {tag: samples(chunk, tag, p)[3::4]
             for tag in ("before", "binarize", "equalize 0", "equalize 1")}
    before = alpha.pop("before")
    t.check(f"{p}/alpha: {n} pixels read, partial alpha",
            len(before) == n and len(np.unique(before)) > 10, f"{len(before)} pixels")
    for tag, got in alpha.items():
        t.check(f"{p}/alpha: {tag} keeps alpha bit for bit",
                len(got) == n and got.tobytes() == before.tobytes(),
                f"{(got != before).sum()} of {n} differ" if len(got) == n else f"{len(got)} pixels")


def srgb_decode(v):
    """sRGB-encoded samples (0..1) in linear light."""
    import numpy as np
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def check_luminance_equalize(t, chunk, path, luminance="perceptual"):
    """Mode 1 on a 16-bit photo: the new luminance (the host's) is spread evenly,
    hue is kept."""
    import cv2
    import numpy as np
    tag = "U16-GAMMA/equalize luminance"
    t.check(f"{tag}: ran", chunk.ok, chunk.text)
    after = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if after is None or after.dtype != np.uint16:
        t.check(f"{tag}: 16-bit result", False, "unreadable" if after is None else str(after.dtype))
        return
    after = after[..., ::-1] / 65535.0
    before = cv2.imread(str(PHOTOS["chelsea"][0]))[..., ::-1] / 255.0
    weights = np.array([0.22248840, 0.71690369, 0.06060791])
    if luminance == "linear":
        # Luminance and the colour model work in linear light there.
        before, after = srgb_decode(before), srgb_decode(after)
    lum = after @ weights
    q = np.quantile(lum, np.linspace(0.1, 0.9, 9))
    t.check(f"{tag}: luminance deciles evenly spread", np.abs(q - np.linspace(0.1, 0.9, 9)).max() < 0.05,
            f"deciles {np.round(q, 3)}")
    hsv_b = cv2.cvtColor(before.astype(np.float32), cv2.COLOR_RGB2HSV)
    hsv_a = cv2.cvtColor(after.astype(np.float32), cv2.COLOR_RGB2HSV)
    sel = (np.ptp(before, axis=2) >= 24 / 255) & (np.ptp(after, axis=2) >= 24 / 255)
    d = np.abs(hsv_a[..., 0] - hsv_b[..., 0])[sel]
    d = np.minimum(d, 360 - d)
    t.check(f"{tag}: hue kept", sel.sum() > 1000 and np.percentile(d, 99) < 4,
            f"{sel.sum()} pixels, 99th percentile hue shift {np.percentile(d, 99):.2f} degrees")


if __name__ == "__main__":
    main()
