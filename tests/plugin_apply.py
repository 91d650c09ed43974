#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The plug-in's equalize and binarize in gimp-console (GIMP 2.10 or 3), checked pixel for
pixel against OpenCV (gray and per channel on RGB), plus the selection, alpha,
luminance-only equalize, RUN-WITH-LAST-VALS and every refusal (indexed, layer
group, bad arguments), which must leave the image exactly as it was.  (Layers
above 8 bits: plugin_precision.py.)

Usage: plugin_apply.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import csv

from plugin_gimp import ROOT, GimpConsole, Snippets, Tally, parse_args, require_gimp, scm_str

IMAGES = ROOT / "testimages"
FIX = ROOT / "tests" / "fixtures" / "gimp"


def png(path):
    """8-bit PNG in file order (gray, gray+alpha, RGB or RGBA), as numpy."""
    import cv2
    a = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if a is None:
        raise RuntimeError(f"cannot read {path}")
    if a.ndim == 2:
        return a
    if a.shape[2] == 3:
        return a[..., ::-1]
    rgba = a[..., [2, 1, 0, 3]]
    return rgba[..., [0, 3]] if path.read_bytes()[25] == 4 else rgba


WEIGHTS = (0.22248840, 0.71690369, 0.06060791)


def srgb_to_linear(v):
    """8-bit sRGB-encoded samples -> linear light 0..1 (float64)."""
    import numpy as np
    v = v.astype(np.float64) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def gimp_luminance(rgb, luminance="perceptual"):
    """Each pixel's luminance on 0..255 as GIMP weighs it: GIMP 2.10 the stored
    (perceptual) samples, GIMP 3 the linear-light ones (float64, for checks)."""
    import numpy as np
    f = rgb[..., :3].astype(np.float64) if luminance == "perceptual" else srgb_to_linear(rgb[..., :3]) * 255
    return f @ np.array(WEIGHTS)


def gimp_luminance_bins(rgb, luminance="perceptual"):
    """GIMP's luminance bin of each pixel, with its float roundings (gpu/engine/pixel.h).
    luminance="linear": GIMP 3's (babl's "Y float" of the sRGB-decoded samples,
    binned as (int) (Y * 255 + 0.5); equal to gimp-drawable-histogram of GIMP
    3.0.4 bin for bin on chelsea.png)."""
    import numpy as np
    if luminance == "linear":
        f = [srgb_to_linear(rgb[..., k]).astype(np.float32) for k in range(3)]
    else:
        f = [(rgb[..., k] / 255.0).astype(np.float32).astype(np.float64) for k in range(3)]
    lum = (f[0] * WEIGHTS[0] + f[1] * WEIGHTS[1] + f[2] * WEIGHTS[2]).astype(np.float32)
    t = lum * np.float32(255.0)
    return (t.astype(np.float64) + 0.5).astype(np.int64).astype(np.uint8)


def commands(tmp):
    s = Snippets(tmp)
    on, out, guarded = s.on, s.out, s.guarded

    cam, ast, che = IMAGES / "camera.png", IMAGES / "astronaut.png", IMAGES / "chelsea.png"
    return {
        "camera binarize": on(cam, "(gh-say \"T\" (gh-binarize "
                                   f"RUN-NONINTERACTIVE img drw 0 -1)) (gh-save img drw {out('camera-bin.png')})"),
        "camera equalize": on(cam, "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
                                   f"(gh-save img drw {out('camera-eq.png')})"),
        "camera equalize rect": on(cam, "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
                                        f"(gh-save img drw {out('camera-eq-rect.png')})",
                                   "(rect 100 60 250 180)"),
        "astronaut equalize": on(ast, "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
                                      f"(gh-save img drw {out('astronaut-eq.png')})"),
        "astronaut binarize red": on(ast, "(gh-say \"T\" (gh-binarize "
                                          "RUN-NONINTERACTIVE img drw 1 100))"
                                          f"(gh-save img drw {out('astronaut-bin-red.png')})"),
        # Right after the run it repeats; the arguments given are ignored.
        "astronaut binarize last vals": on(ast, "(gh-say \"T\" (gh-binarize "
                                                "RUN-WITH-LAST-VALS img drw 0 -1))"
                                                f"(gh-save img drw {out('astronaut-bin-last.png')})"),
        "export last vals": on(cam, f"(gh-export RUN-NONINTERACTIVE img drw {out('last.csv')})"
                                    f"(let ((a (gh-load {scm_str(ast)})))"
                                    " (gh-export RUN-WITH-LAST-VALS (car a) (cadr a) \"\"))"),
        "chelsea binarize luminance": on(che, "(gh-say \"T\" (gh-binarize "
                                              "RUN-NONINTERACTIVE img drw 5 -1))"
                                              f"(gh-save img drw {out('chelsea-bin-lum.png')})"),
        "chelsea equalize luminance": on(che, "(gh-equalize RUN-NONINTERACTIVE img drw 1)"
                                              f"(gh-save img drw {out('chelsea-eq-lum.png')})"),
        "chelsea last vals": on(che, "(gh-equalize RUN-WITH-LAST-VALS img drw 0)"
                                     f"(gh-save img drw {out('chelsea-eq-last.png')})"),
        "chelsea feathered binarize": on(che, f"(gh-save-selection img {out('chelsea-mask.pgm')})"
                                              "(gh-say \"T\" (gh-binarize "
                                              "RUN-NONINTERACTIVE img drw 5 -1))"
                                              f"(gh-save img drw {out('chelsea-bin-ellipse.png')})",
                                         "(ellipse 60 30 300 220)"),
        # Above one 4 MiB strip: the histogram's pass keeps the pixels and
        # the apply takes them from there (core_region_keep).
        "big equalize": on(tmp / "big.png", "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
                                            f"(gh-save img drw {out('big-eq.png')})"),
        "big equalize rect": on(tmp / "big.png", "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
                                                 f"(gh-save img drw {out('big-eq-rect.png')})",
                                "(rect 100 60 1800 900)"),
        "big binarize luminance": on(tmp / "big.png", "(gh-say \"T\" (gh-binarize "
                                                      "RUN-NONINTERACTIVE img drw 5 -1))"
                                                      f"(gh-save img drw {out('big-bin-lum.png')})"),
        "rgba equalize": on(FIX / "rgba_partial.png",
                            "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
                            f"(gh-save img drw {out('rgba-eq.png')})"),
        "gray+alpha binarize": on(FIX / "gray_alpha.png",
                                  "(gh-binarize RUN-NONINTERACTIVE img drw 0 -1)"
                                  f"(gh-save img drw {out('graya-bin.png')})"),
        "3000x1 equalize": """(let* ((img (car (gimp-image-new 3000 1 GRAY)))
              (drw (gh-new-layer img 3000 1 GRAY-IMAGE "ramp")))
            (gimp-image-insert-layer img drw 0 0)
            (gimp-context-set-default-colors)
            (gimp-drawable-edit-gradient-fill drw GRADIENT-LINEAR 0 FALSE 1 0 TRUE 0 0 2999 0)
            """ + f"(gh-save img drw {out('ramp.png')})"
                  "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
                  f"(gh-save img drw {out('ramp-eq.png')}))",
        "1x1 equalize and binarize": """(let* ((img (car (gimp-image-new 1 1 RGB)))
              (drw (gh-new-layer img 1 1 RGBA-IMAGE "px")))
            (gimp-image-insert-layer img drw 0 0)
            (gimp-context-set-foreground '(200 100 50))
            (gimp-drawable-fill drw FILL-FOREGROUND)
            (gh-equalize RUN-NONINTERACTIVE img drw 0)
            (gh-equalize RUN-NONINTERACTIVE img drw 1)
            (gh-say "T" (gh-binarize RUN-NONINTERACTIVE img drw 5 -1)))""",
        "missed selection": on(che, "(let ((copy (gh-layer-copy drw)))"
                                    " (gimp-image-insert-layer img copy 0 0)"
                                    " (gimp-layer-set-offsets copy 1000 1000) (set! drw copy))"
                                    f"(gh-save img drw {out('missed-before.png')})"
                                    "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
                                    "(gh-binarize RUN-NONINTERACTIVE img drw 5 -1)"
                                    f"(gh-save img drw {out('missed-after.png')})",
                               "(rect 0 0 50 50)"),
        "indexed refused": on(IMAGES / "coffee.png",
                              guarded("(gh-equalize RUN-NONINTERACTIVE img drw 0)",
                                      "indexed"),
                              prep="(gimp-image-convert-indexed img CONVERT-DITHER-NONE "
                                   "CONVERT-PALETTE-GENERATE 64 FALSE FALSE \"\")"),
        "layer group refused": on(che, "(let ((g (gh-group img)))"
                                       " (gimp-image-insert-layer img g 0 0)"
                                       + guarded("(gh-binarize "
                                                 "RUN-NONINTERACTIVE img g 5 -1)", "group") + ")"),
        "red on gray refused": on(cam, guarded("(gh-binarize RUN-NONINTERACTIVE "
                                               "img drw 1 -1)", "redgray")),
        # Each error is followed by the image saved again: it must equal
        # the one saved before, pixel for pixel (a process that died or
        # half-applied would not).
        "bad mode": on(cam, guarded("(gh-equalize RUN-NONINTERACTIVE img drw 2)", "badmode")),
        "threshold 255": on(cam, guarded("(gh-binarize RUN-NONINTERACTIVE img drw 0 255)",
                                         "threshold255")),
        "channel 6": on(cam, guarded("(gh-binarize RUN-NONINTERACTIVE img drw 6 -1)", "channel6")),
        "too few arguments": on(cam, guarded("(gh-equalize-too-few img drw)", "toofew")),
        # An export that cannot replace its target (a folder) leaves it,
        # and the folder it writes in, as they were.
        "export onto a folder": on(cam, guarded(f"(gh-export RUN-NONINTERACTIVE img drw {out('folder.csv')})",
                                                "exportfolder")),
        "interactive statistics": on(cam, "(gh-histogram RUN-INTERACTIVE img drw)"),
    }


def main():
    host, plugin = parse_args("plugin_apply.py")
    require_gimp(host)
    import cv2
    import numpy as np
    t = Tally()

    def same(what, got, want):
        if got.shape != want.shape:
            t.check(what, False, f"shape {got.shape} != {want.shape}")
            return
        diff = np.argwhere(got != want)
        t.check(what, len(diff) == 0,
                f"{len(diff)} samples differ, first at {diff[0].tolist() if len(diff) else ''}")

    def threshold_of(chunk):
        f = chunk.fields("T")
        return int(float(f[0][0])) if f else None

    # GIMP 2.10 repeats the last run's arguments, a NONINTERACTIVE one too
    # (the commands before the RUN-WITH-LAST-VALS ones); GIMP 3 the settings of
    # the last interactive run, which are written here as such a run leaves them.
    last = None
    if host.gimp3:
        tmp_csv = "file://{tmp}/last.csv"  # a file argument is remembered as a URI
        last = {"plug-in-gpu-histogram-binarize": "(channel 1)\n(threshold 100)",
                "plug-in-gpu-histogram-equalize": "(mode 1)",
                "plug-in-gpu-histogram-export": f'(filename "{tmp_csv}")'}
    with GimpConsole(plugin, host, last_values=last) as s:
        tmp = s.tmp
        (tmp / "folder.csv").mkdir()
        # 2048x1024 RGB (6 MiB): the astronaut tiled, with noise so that no
        # strip repeats another.
        rng = np.random.default_rng(7)
        big = np.tile(png(IMAGES / "astronaut.png"), (2, 4, 1)).astype(np.int16)
        big = np.clip(big + rng.integers(-20, 21, big.shape), 0, 255).astype(np.uint8)
        cv2.imwrite(str(tmp / "big.png"), big[..., ::-1])
        out = s.run(commands(tmp))
        for tag, chunk in out.items():
            # Errors are caught (gh-guard): every command runs to its end.
            t.check(f"{tag}: ran", chunk.ok, chunk.text)

        cam = png(IMAGES / "camera.png")
        otsu, want = cv2.threshold(cam, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        t.check("camera binarize: Otsu threshold = OpenCV's", threshold_of(out["camera binarize"]) == otsu,
                f"{threshold_of(out['camera binarize'])} != {otsu}")
        same("camera binarize: pixels = OpenCV THRESH_BINARY|THRESH_OTSU", png(tmp / "camera-bin.png"), want)
        same("camera equalize: pixels = cv2.equalizeHist", png(tmp / "camera-eq.png"), cv2.equalizeHist(cam))
        want = cam.copy()
        want[60:240, 100:350] = cv2.equalizeHist(np.ascontiguousarray(cam[60:240, 100:350]))
        same("camera equalize in a rectangle: histogram and change from the selection only",
             png(tmp / "camera-eq-rect.png"), want)

        ast = png(IMAGES / "astronaut.png")
        want = np.dstack([cv2.equalizeHist(np.ascontiguousarray(ast[..., k])) for k in range(3)])
        same("astronaut equalize: each channel = cv2.equalizeHist", png(tmp / "astronaut-eq.png"), want)
        want = np.repeat(np.where(ast[..., :1] > 100, 255, 0).astype(np.uint8), 3, axis=2)
        same("astronaut binarize red > 100", png(tmp / "astronaut-bin-red.png"), want)
        t.check("RUN-WITH-LAST-VALS repeats binarize's threshold 100",
                threshold_of(out["astronaut binarize last vals"]) == 100,
                str(threshold_of(out["astronaut binarize last vals"])))
        same("RUN-WITH-LAST-VALS repeats binarize's channel (red) and threshold",
             png(tmp / "astronaut-bin-last.png"), png(tmp / "astronaut-bin-red.png"))
        rows = list(csv.reader(open(tmp / "last.csv"))) if (tmp / "last.csv").exists() else []
        got = [float(r[1]) for r in rows[1:]]
        want = np.bincount(ast.max(axis=2).ravel(), minlength=256).tolist()
        t.check("RUN-WITH-LAST-VALS repeats export's file name (the second image's histogram in it)",
                got == want, f"{len(rows)} rows")

        che = png(IMAGES / "chelsea.png")
        lum = gimp_luminance_bins(che, host.luminance)
        otsu, _ = cv2.threshold(lum, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        t_lum = threshold_of(out["chelsea binarize luminance"])
        t.check("chelsea binarize luminance: Otsu = OpenCV's on GIMP's luminance", t_lum == otsu,
                f"{t_lum} != {otsu}")
        want = np.repeat(np.where(lum[..., None] > otsu, 255, 0).astype(np.uint8), 3, axis=2)
        same("chelsea binarize luminance: pixels", png(tmp / "chelsea-bin-lum.png"), want)

        def each_channel(a):
            return np.dstack([cv2.equalizeHist(np.ascontiguousarray(a[..., k])) for k in range(3)])
        same("2048x1024 equalize (kept between passes): each channel = cv2.equalizeHist",
             png(tmp / "big-eq.png"), each_channel(big))
        want = big.copy()
        want[60:960, 100:1900] = each_channel(big[60:960, 100:1900])
        same("2048x1024 equalize in a rectangle (kept): the selection only",
             png(tmp / "big-eq-rect.png"), want)
        big_lum = gimp_luminance_bins(big, host.luminance)
        otsu, _ = cv2.threshold(big_lum, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        t_big = threshold_of(out["big binarize luminance"])
        t.check("2048x1024 binarize luminance: Otsu = OpenCV's", t_big == otsu, f"{t_big} != {otsu}")
        want = np.repeat(np.where(big_lum[..., None] > otsu, 255, 0).astype(np.uint8), 3, axis=2)
        same("2048x1024 binarize luminance (kept): pixels", png(tmp / "big-bin-lum.png"), want)

        check_luminance_equalize(t, che, png(tmp / "chelsea-eq-lum.png"), host.luminance)
        same("RUN-WITH-LAST-VALS repeats mode 1", png(tmp / "chelsea-eq-last.png"),
             png(tmp / "chelsea-eq-lum.png"))

        mask = cv2.imread(str(tmp / "chelsea-mask.pgm"), cv2.IMREAD_UNCHANGED)
        got = png(tmp / "chelsea-bin-ellipse.png").astype(int)
        t_sel = threshold_of(out["chelsea feathered binarize"])
        if mask is None or t_sel is None:
            t.check("feathered selection", False, "no mask or threshold")
        else:
            res = np.repeat(np.where(lum[..., None] > t_sel, 255, 0), 3, axis=2)
            orig = che.astype(int)
            m = mask[..., None].repeat(3, axis=2)
            # Unselected: 0 in the 8-bit mask, 16 pixels or more from where it
            # is not.  GIMP 3's float selection is not quite 0 near the
            # feather's edge (up to ~9 pixels out on this one) and GIMP 3 blends
            # in linear light, where such a weight still moves a dark pixel by
            # 1 level; GIMP 2.10 moves none.
            off = cv2.distanceTransform((mask == 0).astype(np.uint8), cv2.DIST_L2, 5) >= 16
            off = off[..., None].repeat(3, axis=2)
            t.check("feathered selection: unselected pixels unchanged",
                    (got[off] == orig[off]).all(), f"{(got[off] != orig[off]).sum()} samples changed")
            # Fully selected: 255 in the mask and 16 pixels from anything less
            # (GIMP 3's float mask is just under 1 near the edge: see above).
            full = cv2.distanceTransform((mask == 255).astype(np.uint8), cv2.DIST_L2, 5) >= 16
            full = full[..., None].repeat(3, axis=2)
            t.check("feathered selection: fully selected pixels binarized",
                    (got[full] == res[full]).all())
            part = (m > 0) & (m < 255)
            lo, hi = np.minimum(orig, res), np.maximum(orig, res)
            t.check("feathered selection: partly selected pixels between original and result",
                    part.any() and ((got[part] >= lo[part] - 1) & (got[part] <= hi[part] + 1)).all())
            lerp = orig + (res - orig) * m / 255.0
            print(f"     partly selected: largest distance from a perceptual lerp "
                  f"{np.abs(got[part] - lerp[part]).max():.1f} levels (GIMP's Replace blend)")

        rgba, rgba_eq = png(FIX / "rgba_partial.png"), png(tmp / "rgba-eq.png")
        same("RGBA equalize: alpha kept", rgba_eq[..., 3], rgba[..., 3])
        ga, ga_bin = png(FIX / "gray_alpha.png"), png(tmp / "graya-bin.png")
        same("gray+alpha binarize: alpha kept", ga_bin[..., 1], ga[..., 1])
        t.check("gray+alpha binarize: gray is 0 or 255", np.isin(ga_bin[..., 0], (0, 255)).all())

        ramp = png(tmp / "ramp.png")
        same("3000x1 equalize = cv2.equalizeHist", png(tmp / "ramp-eq.png"), cv2.equalizeHist(ramp))
        same("selection missing the layer: unchanged", png(tmp / "missed-after.png"),
             png(tmp / "missed-before.png"))

        for tag, name, text in (("indexed refused", "indexed", "is indexed"),
                                ("layer group refused", "group", "layer group"),
                                ("red on gray refused", "redgray", "has no red channel")):
            chunk = out[tag]
            t.check(f"{tag}: error with a clear message", len(chunk.fields("REFUSED")) == 1
                    and text in chunk.text, chunk.text)
            same(f"{tag}: image unchanged", png(tmp / f"{name}-after.png"), png(tmp / f"{name}-before.png"))
        for tag, name in (("bad mode", "badmode"), ("threshold 255", "threshold255"),
                          ("channel 6", "channel6"), ("too few arguments", "toofew"),
                          ("export onto a folder", "exportfolder")):
            chunk = out[tag]
            if tag == "too few arguments":
                t.check(f"{tag}: Script-Fu refuses, no crash", len(chunk.fields("REFUSED")) == 1
                        and "crash" not in chunk.text.lower(), chunk.text)
            elif tag == "export onto a folder":
                # GIMP 3 checks a file argument itself: a folder is out of
                # range for a file to save, refused before the plug-in runs.
                t.check(f"{tag}: refused, saying why", len(chunk.fields("REFUSED")) == 1
                        and ("cannot write" in chunk.text
                             or (host.gimp3 and "'filename'" in chunk.text
                                 and host.calling_error(chunk.text))), chunk.text)
            else:
                t.check(f"{tag}: calling error", len(chunk.fields("REFUSED")) == 1
                        and host.calling_error(chunk.text), chunk.text)
            same(f"{tag}: the image unchanged after the error, pixel for pixel",
                 png(tmp / f"{name}-after.png"), png(tmp / f"{name}-before.png"))
        t.check("export onto a folder: the folder as it was, no file left beside it",
                (tmp / "folder.csv").is_dir() and not any((tmp / "folder.csv").iterdir())
                and not [p.name for p in tmp.iterdir() if p.name.startswith(".")],
                repr([p.name for p in tmp.iterdir() if p.name.startswith(".")]))
        t.check("interactive statistics: a message with the numbers",
                "channel: count, min, max" in out["interactive statistics"].text,
                out["interactive statistics"].text)
    t.finish()


def check_luminance_equalize(t, before, after, luminance="perceptual"):
    """Mode 1: luminance (the host's) moves to the equalized table's value, hue stays."""
    import cv2
    import numpy as np
    target = cv2.equalizeHist(gimp_luminance_bins(before, luminance)).astype(float)
    lum_after = gimp_luminance(after, luminance)
    err = np.abs(lum_after - target)
    t.check("equalize luminance: new luminance = equalized table (within rounding)",
            np.percentile(err, 99.9) <= 1.0, f"99.9th percentile {np.percentile(err, 99.9):.2f}")
    # Hue where the luminance was scaled: GIMP 3's in linear light.
    if luminance == "linear":
        hsv_b = cv2.cvtColor(srgb_to_linear(before).astype(np.float32), cv2.COLOR_RGB2HSV)
        hsv_a = cv2.cvtColor(srgb_to_linear(after).astype(np.float32), cv2.COLOR_RGB2HSV)
    else:
        hsv_b = cv2.cvtColor(before.astype(np.float32) / 255, cv2.COLOR_RGB2HSV)
        hsv_a = cv2.cvtColor(after.astype(np.float32) / 255, cv2.COLOR_RGB2HSV)
    # hue is only defined, and only robust to 8-bit rounding, where there is chroma
    chroma_b = before.max(axis=2).astype(int) - before.min(axis=2)
    chroma_a = after.max(axis=2).astype(int) - after.min(axis=2)
    sel = (chroma_b >= 24) & (chroma_a >= 24)
    d = np.abs(hsv_a[..., 0] - hsv_b[..., 0])[sel]
    d = np.minimum(d, 360 - d)
    t.check("equalize luminance: hue kept", sel.sum() > 1000 and np.percentile(d, 99) < 4,
            f"{sel.sum()} pixels, 99th percentile hue shift {np.percentile(d, 99):.2f} degrees")
    unclipped = after.max(axis=2) < 250
    ratio_b = before[..., 0].astype(float) / np.maximum(before.sum(axis=2), 1)
    ratio_a = after[..., 0].astype(float) / np.maximum(after.sum(axis=2), 1)
    sel = unclipped & (before.sum(axis=2) > 150) & (after.sum(axis=2) > 150)
    t.check("equalize luminance: saturation kept where nothing clips",
            np.percentile(np.abs(ratio_a - ratio_b)[sel], 99) < 0.01)


if __name__ == "__main__":
    main()
