#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Images with a colour profile in gimp-console (GIMP 3, or GIMP 2.10 where
it applies): the plug-in works on the drawable's own stored values, in its own colour
space, as GIMP's own histogram does.  The images are tests/fixtures/profiled/ (PNG,
JPEG and TIFF with embedded ICC profiles: Adobe RGB, Display P3, ProPhoto, a gray
profile; a PNG whose gAMA and cHRM GIMP 3 turns into a profile; 8-bit, 16-bit and
float; palette images; a one-pixel image: make_profiled_images.py there).

- statistics: every channel of every image, with and without a feathered selection,
  equals GIMP's own gimp-drawable-histogram on the same drawable (GIMP 3's luminance:
  babl's "Y float" in the image's space, not sRGB's); in GIMP 3 also at perceptual
  and linear precisions in the image's space;
- applies that must change nothing leave the pixels byte for byte and the profile:
  equalize of an image whose channels are flat, binarize (value and luminance) of a
  black-and-white image (8 and 16-bit), CLAHE without clipping of an image it maps
  onto itself;
- equalize, binarize, CLAHE, match and multi-level Otsu on profiled 8-bit images
  equal OpenCV's and scikit-image's on the drawable's stored values, and keep the
  profile;
- luminance: binarize and posterize on luminance paint exactly the pixels GIMP's own
  luminance histogram counts in each class, at the Otsu thresholds of that histogram;
  equalize on luminance moves each pixel's luminance (computed here from the
  profile's primaries and curve: GIMP 3; the stored samples': GIMP 2.10) to the
  equalized table's and keeps its hue;
- the batch on profiled files: results equal the same references and carry the
  image's profile; its statistics rows equal GIMP's histogram; equalize on
  luminance without a table (its histogram the luminance alone) equals the
  procedure's (GIMP 3);
- the source: no babl format without a colour space in the core or the GIMP 3 host
  (every read and write names the drawable's space, or sRGB on purpose).

Usage: plugin_profiles.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import csv
import shutil
import struct
import tempfile
import zlib
from pathlib import Path

from plugin_apply import gimp_luminance, gimp_luminance_bins
from plugin_beyond import GIMP2_CALLS, GIMP3_CALLS, clahe, match_levels, posterized
from plugin_gimp import ROOT, GimpConsole, Snippets, Tally, parse_args, require_gimp, scm_str
from plugin_stats import check_stats

PROFILED = ROOT / "tests" / "fixtures" / "profiled"
RGB, RGBA, GRAY = [0, 1, 2, 3, 5], [0, 1, 2, 3, 4, 5], [0]
# The images: the channels GIMP's PDB gives of each, and whether GIMP bins it in 1024
# bins (above 8 bits).
IMAGES = {"adobe.png": (RGB, False), "p3.jpg": (RGB, False), "p3_alpha.png": (RGBA, False),
          "gama_chrm.png": (RGB, False), "prophoto16.png": (RGB, True),
          "prophoto16.tif": (RGB, True), "adobe_float.tif": (RGB, True),
          "gray22.png": (GRAY, False), "gray22_16.png": (GRAY, True),
          "palette.png": (RGB, False), "pixel.png": (RGB, False)}
# GIMP 3 only (GIMP 2.10 has no perceptual precision, and after a conversion in a
# command its PDB gives linear numbers: plugin_precision.py): the image converted to
# another tone curve in its own space, ("~": sRGB's curve; linear light), and the
# channels asked.
CONVERTED = {"adobe.png": ("U8-PERCEPTUAL", RGB), "prophoto16.png": ("U16-LINEAR", RGB),
             "p3_alpha.png": ("FLOAT-LINEAR", RGBA)}
# GIMP 2.10 makes no profile of a PNG's gAMA and cHRM: there these are sRGB images.
GAMA_CHRM = ("gama_chrm.png", "pixel.png")
ELLIPSE = "(ellipse 20 15 120 90)"
# 8-bit RGB images the references run on, and those the luminance checks run on.
REFERENCE = ("adobe.png", "gama_chrm.png", "p3.jpg")
LUMINANCE = ("adobe.png", "gama_chrm.png", "p3_alpha.png", "prophoto16.png")
# GIMP 3 above 8 bits in another space than sRGB: babl picks its conversion to
# "Y float" among paths by timing them, per process, and GIMP's own
# gimp-drawable-histogram of prophoto16.tif's luminance under the ellipse was std-dev
# 36.88601485 in one run and 36.88597646 in the next (3.0.4: one pixel one bin
# apart); the plug-in, another process, gives one or the other.  So those luminances
# are compared within 1e-5, and a count of pixels on a side of a 1024-bin threshold
# within 2.
DEEP_LUMINANCE_REL = 1e-5
DEEP_PIXELS = 2

# Both hosts: (gh-profile img tag) says PROFILE|tag|size|checksum of the image's colour
# profile (size 0: none, GIMP's built-in sRGB); GIMP 3 also writes it to the test's
# folder as tag.icc.  (GIMP 3's PDB has no public procedure for it: Python-Fu asks
# libgimp.  GIMP 3's gimp-file-save, which gh-save calls, writes no profile: it runs
# the export procedure with the defaults it registered, include-color-profile FALSE
# in 3.0.4 and 3.2.6, so the profile is checked in GIMP, before and after each call;
# the batch exports with it, checked in its files.)  And
# (gh-gimp-bins tag drw ch n) says BINS|tag|the counts of each of GIMP's n bins.
CHECKSUM = 1000000007
COMMON_CALLS = r"""
(define (gh-gimp-bins tag drw ch n)
  (let loop ((k (- n 1)) (acc '()))
    (if (< k 0)
        (gh-say "BINS" tag (gh-join (map number->string acc)))
        (loop (- k 1)
              (cons (list-ref (gh-gimp-histogram drw ch (/ k (- n 1.0)) (/ k (- n 1.0))) 4)
                    acc)))))
"""
PROFILE_CALLS = {
    "gimp2": r"""
(define (gh-profile img tag dir)
  (let* ((r (gimp-image-get-color-profile img)) (n (car r)) (v (cadr r)))
    (let loop ((i 0) (h 0))
      (if (< i n)
          (loop (+ i 1) (modulo (+ (* h 31) (vector-ref v i)) """ + str(CHECKSUM) + r"""))
          (gh-say "PROFILE" tag n h)))))
""",
    "gimp3": r"""
(define (gh-profile img tag dir)
  (python-fu-eval #:run-mode RUN-NONINTERACTIVE #:script (string-append
    "from gi.repository import Gimp\n"
    "p = Gimp.Image.get_by_id(" (number->string img) ").get_color_profile()\n"
    "icc = bytes(p.get_icc_profile()) if p else b''\n"
    "h = 0\n"
    "for b in icc: h = (h * 31 + b) % """ + str(CHECKSUM) + r"""\n"
    "if icc: open('" dir "/" tag ".icc', 'wb').write(icc)\n"
    "Gimp.message('PROFILE|" tag "|%d|%d' % (len(icc), h))\n")))
""",
}


def commands(tmp, host):
    s = Snippets(tmp)
    on, out = s.on, s.out

    def profile(tag):
        return f"(gh-profile img \"{tag}\" {scm_str(tmp)})"

    def before_after(file, call, name):
        """The image exported as PNG, and its profile said, before and after `call`."""
        return on(PROFILED / file, f"{profile(name + '-before')}"
                                   f"(gh-save img drw {out(name + '-before.png')})"
                                   f"{call}(gh-save img drw {out(name + '.png')})"
                                   f"{profile(name)}")

    def stats(tag, name, chans, prep, sel):
        """The plug-in's statistics and GIMP's own of channels chans."""
        return on(PROFILED / name, f"{prep}(gh-stats \"{tag}\" img drw)"
                                   f"(gh-gimp-stats \"{tag}\" drw '({' '.join(map(str, chans))}))",
                  sel)

    c = {}
    for name, (chans, _) in IMAGES.items():
        for sel_name, sel in (("none", "(none)"), ("ellipse", ELLIPSE)):
            tag = f"{name}/{sel_name}"
            c[f"stats {tag}"] = stats(tag, name, chans,
                                      profile('stats-' + name + '-' + sel_name), sel)
    if host.gimp3:
        for name, (precision, chans) in CONVERTED.items():
            tag = f"{name} as {precision}"
            c[f"stats {tag}"] = stats(
                tag, name, chans, f"(gimp-image-convert-precision img PRECISION-{precision})",
                ELLIPSE)
    # Applies that must change nothing.
    c["identity equalize"] = before_after("flat.png", "(gh-equalize RUN-NONINTERACTIVE img drw 0)",
                                          "id-eq")
    c["identity binarize value"] = before_after(
        "bw.png", "(gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE img drw 0 -1))", "id-bin")
    c["identity binarize luminance"] = before_after(
        "bw.png", "(gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE img drw 5 -1))", "id-bin-lum")
    c["identity binarize 16-bit luminance"] = before_after(
        "bw16.png", "(gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE img drw 5 -1))", "id-bin16")
    c["identity clahe"] = before_after(
        "clahe_id.png", "(gh-clahe RUN-NONINTERACTIVE img drw 0.0 8 8 0)", "id-clahe")
    # Against OpenCV and scikit-image, on the stored values exported before.
    for f in REFERENCE:
        n = f.split(".")[0]
        c[f"equalize {f}"] = before_after(f, "(gh-equalize RUN-NONINTERACTIVE img drw 0)",
                                          f"eq-{n}")
        c[f"binarize {f}"] = before_after(
            f, "(gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE img drw 1 -1))", f"bin-{n}")
        c[f"clahe {f}"] = before_after(f, "(gh-clahe RUN-NONINTERACTIVE img drw 2.0 8 8 0)",
                                       f"clahe-{n}")
        c[f"multi-otsu {f}"] = before_after(
            f, "(gh-say \"T\" (gh-vec (gh-multi-otsu RUN-NONINTERACTIVE img drw 0 3 1)))",
            f"otsu-{n}")
    ref = PROFILED / "gama_chrm.png"
    c["match"] = before_after("adobe.png", f"(let ((r (gh-load {scm_str(ref)})))"
                                           " (gh-match RUN-NONINTERACTIVE img drw (cadr r) 0)"
                                           f" (gh-save (car r) (cadr r) {out('match-ref.png')}))",
                              "match")
    # Luminance: GIMP's own histogram of it, then the operations on it.
    for f in LUMINANCE:
        n = f.split(".")[0]
        bins = 1024 if IMAGES[f][1] else 256
        c[f"luminance bins {f}"] = on(PROFILED / f, f"(gh-gimp-bins \"{f}\" drw 5 {bins})")
        c[f"binarize luminance {f}"] = before_after(
            f, "(gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE img drw 5 -1))", f"bin-lum-{n}")
        c[f"posterize luminance {f}"] = before_after(
            f, "(gh-say \"T\" (gh-vec (gh-multi-otsu RUN-NONINTERACTIVE img drw 5 3 1)))",
            f"post-lum-{n}")
    for f in ("adobe.png", "gama_chrm.png"):
        n = f.split(".")[0]
        c[f"equalize luminance {f}"] = before_after(
            f, "(gh-equalize RUN-NONINTERACTIVE img drw 1)", f"eq-lum-{n}")
        c[f"clahe luminance {f}"] = before_after(
            f, "(gh-clahe RUN-NONINTERACTIVE img drw 2.0 8 8 1)", f"clahe-lum-{n}")
    # The batch on a folder of profiled files.
    src = tmp / "batch"
    for op in (0, 1, 3):
        c[f"batch {op}"] = (f"(gh-batch RUN-NONINTERACTIVE {scm_str(src / '*.png')} {op}"
                            f" {scm_str(tmp / f'batch{op}') if op else scm_str('')}"
                            f" {scm_str(tmp / f'batch{op}.csv')})")
    if host.gimp3:
        # Equalize on luminance without a table (GIMP 3 leaves the argument
        # out): its histogram is the luminance alone, counted from the
        # luminance view only.
        c["batch 2"] = ("(plug-in-gpu-histogram-batch #:run-mode RUN-NONINTERACTIVE"
                        f" #:pattern {scm_str(src / '*.png')} #:operation 2"
                        f" #:output-dir {scm_str(tmp / 'batch2')})")
    return c


def main():
    host, plugin = parse_args("plugin_profiles.py")
    require_gimp(host)
    try:
        import cv2
        import numpy as np
        from skimage.filters import threshold_multiotsu
    except ImportError as e:
        print(f"cannot import OpenCV / scikit-image ({e}): skipping")
        raise SystemExit(77)
    t = Tally()
    with tempfile.TemporaryDirectory() as d:
        script = Path(d) / "gh-profile-calls.scm"
        script.write_text((GIMP3_CALLS if host.gimp3 else GIMP2_CALLS) + COMMON_CALLS
                          + PROFILE_CALLS[host.name])
        with GimpConsole(plugin, host, scripts=[script]) as s:
            run_checks(t, s, host, cv2, np, threshold_multiotsu)
    t.finish()


def icc_of(path):
    """The ICC profile a PNG carries (iCCP), or None."""
    data = Path(path).read_bytes() if Path(path).exists() else b""
    i = 8
    while i + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        if kind == b"iCCP":
            body = data[i + 8:i + 8 + n]
            return zlib.decompress(body[body.index(b"\0") + 2:])
        i += 12 + n
    return None


def same_profile(a, b):
    """Whether two ICC profiles are the same but for their creation date and ID
    (GIMP 3 makes the profile of a gAMA and cHRM anew at each load)."""
    def body(p):
        return p[:24] + p[36:84] + p[100:]
    return a is not None and b is not None and body(a) == body(b)


class Profile:
    """An RGB matrix/TRC ICC profile's luminance: Y of the linear light its tone
    curves give (one entry 'curv' gammas, tables, 'para' types 0 and 3), weighted by
    its colorants' Y (D50-adapted, as babl takes them)."""

    def __init__(self, icc):
        import numpy as np
        self.np = np
        n = struct.unpack(">I", icc[128:132])[0]
        tags = {}
        for k in range(n):
            sig, off, size = struct.unpack(">4sII", icc[132 + 12 * k:144 + 12 * k])
            tags[sig] = icc[off:off + size]
        s15 = lambda b, k: struct.unpack(">i", b[k:k + 4])[0] / 65536.0  # noqa: E731
        self.weights = [s15(tags[s], 12) for s in (b"rXYZ", b"gXYZ", b"bXYZ")]
        self.curves = [tags[s] for s in (b"rTRC", b"gTRC", b"bTRC")]

    def decode(self, v, k):
        """Samples v (0..1) through curve k to linear light."""
        np, c = self.np, self.curves[k]
        if c[:4] == b"curv":
            count = struct.unpack(">I", c[8:12])[0]
            if count == 0:
                return v
            if count == 1:
                return v ** (struct.unpack(">H", c[12:14])[0] / 256.0)
            table = np.frombuffer(c[12:12 + 2 * count], ">u2") / 65535.0
            return np.interp(v, np.linspace(0, 1, count), table)
        kind = struct.unpack(">H", c[8:10])[0]
        p = [struct.unpack(">i", c[12 + 4 * i:16 + 4 * i])[0] / 65536.0
             for i in range({0: 1, 3: 5}[kind])]
        if kind == 0:
            return v ** p[0]
        g, a, b, cc, d = p
        return np.where(v >= d, np.maximum(a * v + b, 0) ** g, cc * v)

    def linear(self, rgb):
        """8-bit or 16-bit samples -> linear light (float64)."""
        scale = 65535.0 if rgb.dtype == self.np.uint16 else 255.0
        return self.np.dstack([self.decode(rgb[..., k] / scale, k) for k in range(3)])

    def luminance(self, rgb):
        """Each pixel's luminance on 0..255."""
        return self.linear(rgb) @ self.np.array(self.weights) * 255.0


def read(path):
    """An exported image as stored (8 or 16-bit, file order), or None."""
    import cv2
    p = Path(path)
    if not p.exists():
        return None
    a = cv2.imread(str(p), cv2.IMREAD_UNCHANGED)
    if a is None or a.ndim == 2:
        return a
    return a[..., [2, 1, 0] + ([3] if a.shape[2] == 4 else [])]


def otsu_of(counts):
    """Otsu's threshold of histogram counts (the engine's and OpenCV's rule: the first
    bin t of the largest between-class variance, bins <= t dark)."""
    import numpy as np
    h = np.asarray(counts, float)
    i = np.arange(len(h))
    w0, m0 = np.cumsum(h), np.cumsum(h * i)
    w1, m1 = w0[-1] - w0, m0[-1] - m0
    with np.errstate(divide="ignore", invalid="ignore"):
        b = w0 * w1 * (m0 / w0 - m1 / w1) ** 2
    b = np.nan_to_num(b[:-1], nan=-1.0)
    return int(np.argmax(b))


def check_formats(t):
    """babl_format ("...") means sRGB in GIMP 3: the core and the GIMP 3 host name a
    space in every format (babl_format_with_space)."""
    import re
    found = [f"{p.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}"
             for p in sorted((ROOT / "plugin" / "core").glob("*.c"))
             + sorted((ROOT / "plugin" / "gimp3").glob("*.c"))
             for text in [p.read_text()] for m in re.finditer(r"\bbabl_format\s*\(", text)]
    t.check("every babl format of the core and the GIMP 3 host names its colour space",
            not found, ", ".join(found))


def run_checks(t, s, host, cv2, np, threshold_multiotsu):
    tmp = s.tmp
    check_formats(t)
    (tmp / "batch").mkdir()
    for f in ("adobe.png", "gama_chrm.png", "gray22.png", "prophoto16.png"):
        shutil.copy(PROFILED / f, tmp / "batch" / f)
    out = s.run(commands(tmp, host))
    for tag, chunk in out.items():
        t.check(f"{tag}: ran", chunk.ok, chunk.text[-2000:])

    def same(what, got, want):
        if got is None or want is None:
            t.check(what, False, "no result file")
            return
        if got.shape != want.shape:
            t.check(what, False, f"shape {got.shape} != {want.shape}")
            return
        bad = np.argwhere(got != want)
        t.check(what, len(bad) == 0, f"{len(bad)} samples differ, first at "
                                     f"{bad[0].tolist() if len(bad) else ''}")

    def said(tag):
        f = out[tag].fields("T")
        return [int(float(v)) for v in f[0]] if f else None

    # --- Statistics ------------------------------------------------------
    gimp = {}
    for name, (chans, deep) in IMAGES.items():
        for sel in ("none", "ellipse"):
            chunk = out[f"stats {name}/{sel}"]
            if sel == "none":
                prof = profile_said(chunk, f"stats-{name}-none")
                if host.gimp3 or name not in GAMA_CHRM:
                    t.check(f"{name}: loads with its colour profile", prof and prof[0] > 0,
                            f"profile (bytes, checksum): {prof}")
            rel = {5: DEEP_LUMINANCE_REL} if deep and host.gimp3 else None
            check_stats(t, f"{name}/{sel}", chunk, chans, rel)
            gimp[name, sel] = {int(f[1]): [float(v) for v in f[2:]]
                               for f in chunk.fields("GIMP") if f[0] == f"{name}/{sel}"}

    if host.gimp3:
        for name, (precision, chans) in CONVERTED.items():
            tag = f"{name} as {precision}"
            rel = None if precision.startswith("U8") else {5: DEEP_LUMINANCE_REL}
            check_stats(t, tag, out[f"stats {tag}"], chans, rel)

    # --- Applies that change nothing ---------------------------------------
    for tag, name, what in (("identity equalize", "id-eq", "equalize of flat channels"),
                            ("identity binarize value", "id-bin",
                             "binarize (value, Otsu) of black and white"),
                            ("identity binarize luminance", "id-bin-lum",
                             "binarize (luminance, Otsu) of black and white"),
                            ("identity binarize 16-bit luminance", "id-bin16",
                             "16-bit binarize (luminance, Otsu) of black and white"),
                            ("identity clahe", "id-clahe",
                             "CLAHE 8 x 8 without clipping of an image it maps to itself")):
        before, after = read(tmp / f"{name}-before.png"), read(tmp / f"{name}.png")
        same(f"{what}: every sample as it was", after, before)
        check_profile_kept(t, host, what, out[tag], name)

    # --- OpenCV and scikit-image on the stored values ----------------------
    def channels(fn, a):
        return np.dstack([fn(np.ascontiguousarray(a[..., k])) for k in range(3)])

    for f in REFERENCE:
        n = f.split(".")[0]
        a = read(tmp / f"eq-{n}-before.png")
        if a is None:
            t.check(f"{f}: exported", False)
            continue
        same(f"{f} equalize: each channel = cv2.equalizeHist", read(tmp / f"eq-{n}.png"),
             channels(cv2.equalizeHist, a))
        otsu, want = cv2.threshold(np.ascontiguousarray(a[..., 0]), 0, 255,
                                   cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        t.check(f"{f} binarize red: Otsu = OpenCV's ({int(otsu)})",
                said(f"binarize {f}") == [int(otsu)], str(said(f"binarize {f}")))
        same(f"{f} binarize red: pixels = OpenCV's THRESH_OTSU", read(tmp / f"bin-{n}.png"),
             np.dstack([want] * 3))
        same(f"{f} CLAHE 2.0 8 x 8: each channel = OpenCV's", read(tmp / f"clahe-{n}.png"),
             channels(lambda c: clahe(c, 2.0, 8, 8), a))
        value = a.max(axis=2)
        want = threshold_multiotsu(value, classes=3).astype(int).tolist()
        t.check(f"{f} multi-Otsu value, 3 classes = scikit-image's {want}",
                said(f"multi-otsu {f}") == want, str(said(f"multi-otsu {f}")))
        same(f"{f} multi-Otsu value: posterized", read(tmp / f"otsu-{n}.png"),
             np.repeat(posterized(value, want, 3)[..., None], 3, axis=2))
        for tag, kind in (("equalize", "eq"), ("binarize", "bin"), ("clahe", "clahe"),
                          ("multi-otsu", "otsu")):
            check_profile_kept(t, host, f"{f} {tag}", out[f"{tag} {f}"], f"{kind}-{n}")
    a, ref = read(tmp / "match-before.png"), read(tmp / "match-ref.png")
    if a is not None and ref is not None:
        same("match adobe.png to gama_chrm.png: each channel = scikit-image's interpolation, "
             "rounded", read(tmp / "match.png"),
             np.dstack([np.floor(match_levels(a[..., k], ref[..., k]) + 0.5)
                        for k in range(3)]).astype(np.uint8))
    check_profile_kept(t, host, "match", out["match"], "match")

    # --- Luminance ---------------------------------------------------------
    for f in LUMINANCE:
        n = f.split(".")[0]
        deep = IMAGES[f][1]
        fields = [x for x in out[f"luminance bins {f}"].fields("BINS") if x[0] == f]
        if not fields:
            t.check(f"{f}: GIMP's luminance histogram", False, out[f"luminance bins {f}"].text)
            continue
        counts = np.array([float(v) for v in fields[0][1:]])
        before = read(tmp / f"bin-lum-{n}-before.png")
        weight = (before[..., 3] / 255.0 if before is not None and before.shape[2] == 4
                  else None)
        check_luminance_classes(t, f"{f} binarize luminance", counts, weight, deep, host,
                                [otsu_of(counts)], said(f"binarize luminance {f}"),
                                read(tmp / f"bin-lum-{n}.png"))
        cents = np.arange(len(counts))
        want = threshold_multiotsu(hist=(counts, cents), classes=3).astype(int).tolist()
        check_luminance_classes(t, f"{f} posterize luminance in 3 classes", counts, weight,
                                deep, host, want, said(f"posterize luminance {f}"),
                                read(tmp / f"post-lum-{n}.png"))
        check_profile_kept(t, host, f"{f} binarize luminance", out[f"binarize luminance {f}"],
                           f"bin-lum-{n}")
        check_profile_kept(t, host, f"{f} posterize luminance", out[f"posterize luminance {f}"],
                           f"post-lum-{n}")
        if host.gimp3 and not deep:
            check_profile_luminance(t, f, tmp, n, said(f"binarize luminance {f}"))
    for f in ("adobe.png", "gama_chrm.png"):
        n = f.split(".")[0]
        for tag, name, mapping in (("equalize luminance", f"eq-lum-{n}", cv2.equalizeHist),
                                   ("clahe luminance", f"clahe-lum-{n}",
                                    lambda bins: clahe(bins, 2.0, 8, 8))):
            check_luminance_move(t, f"{f} {tag}", host, tmp, name, mapping)
            check_profile_kept(t, host, f"{f} {tag}", out[f"{tag} {f}"], name)

    # --- Batch -------------------------------------------------------------
    for f in ("adobe.png", "gama_chrm.png", "gray22.png"):
        a = read(tmp / "batch" / f)
        eq = cv2.equalizeHist(a) if a.ndim == 2 else channels(cv2.equalizeHist, a)
        same(f"batch 1 (equalize) {f}: = cv2.equalizeHist on its stored values",
             read(tmp / "batch1" / f), eq)
    for f in ("adobe.png", "gama_chrm.png") if host.gimp3 else ():
        same(f"batch 2 (equalize luminance, no table) {f}: = the procedure's",
             read(tmp / "batch2" / f), read(tmp / f"eq-lum-{f.split('.')[0]}.png"))
    for f in ("adobe.png", "gama_chrm.png", "gray22.png", "prophoto16.png"):
        for op in (1, 3):
            got = icc_of(tmp / f"batch{op}" / f)
            if host.gimp3:
                want = tmp / f"stats-{f}-none.icc"
                ok = want.exists() and same_profile(got, want.read_bytes())
            elif f in GAMA_CHRM:
                continue
            else:
                # GIMP 2.10's checksum of its profile.
                h = 0
                for b in got or b"":
                    h = (h * 31 + b) % CHECKSUM
                ok = got and profile_said(out[f"stats {f}/none"],
                                          f"stats-{f}-none") == (len(got), h)
            t.check(f"batch {op} {f}: the file carries the image's colour profile", ok)
    rows = list(csv.DictReader(open(tmp / "batch0.csv", newline=""))) \
        if (tmp / "batch0.csv").exists() else []
    names = ("value", "red", "green", "blue", "alpha", "luminance")
    for f in ("adobe.png", "gama_chrm.png", "gray22.png", "prophoto16.png"):
        deep = IMAGES[f][1]
        for c, want in sorted(gimp.get((f, "none"), {}).items()):
            row = [r for r in rows if Path(r["file"]).name == f and r["channel"] == names[c]]
            tol = DEEP_LUMINANCE_REL if deep and host.gimp3 and c == 5 else 1e-6
            ok = row and all(abs(float(row[0][k]) - want[i]) <= max(tol * abs(want[i]), 1e-6)
                             for k, i in (("mean", 0), ("std_dev", 1), ("median", 2)))
            t.check(f"batch 0 statistics {f} {names[c]} = gimp-drawable-histogram", ok,
                    f"{row[0] if row else 'no row'} != GIMP {want}")
    # Binarize on luminance: the statistics' Otsu, white exactly where GIMP counts.
    for f in ("adobe.png", "gama_chrm.png"):
        fields = [x for x in out[f"luminance bins {f}"].fields("BINS") if x[0] == f]
        row = [r for r in rows if Path(r["file"]).name == f and r["channel"] == "luminance"]
        got = read(tmp / "batch3" / f)
        if fields and row and got is not None:
            counts = np.array([float(v) for v in fields[0][1:]])
            otsu = int(float(row[0]["otsu"]))
            t.check(f"batch 3 (binarize) {f}: white where GIMP's luminance is above the "
                    f"statistics' Otsu ({otsu})", otsu == otsu_of(counts)
                    and (got[..., 0] == 255).sum() == counts[otsu + 1:].sum()
                    and np.isin(got, (0, 255)).all(), f"Otsu {otsu_of(counts)}")


def profile_said(chunk, tag):
    """(size, checksum) of the profile gh-profile said under `tag`, or None."""
    said = [f for f in chunk.fields("PROFILE") if f[0] == tag]
    return tuple(int(float(v)) for v in said[0][1:3]) if said else None


def check_profile_kept(t, host, what, chunk, name):
    """The image's profile after the call (`name`) is the one before it (none only
    where GIMP 2.10 ignored a gAMA and cHRM)."""
    b, a = profile_said(chunk, name + "-before"), profile_said(chunk, name)
    none_ok = not host.gimp3 and any(what.startswith(f) for f in GAMA_CHRM)
    t.check(f"{what}: the image's colour profile kept", b and (b[0] > 0 or none_ok)
            and a == b, f"before {b}, after {a} (bytes, checksum)")


def check_luminance_classes(t, what, counts, weight, deep, host, want, got, result):
    """Binarize or posterize on luminance at GIMP's histogram's thresholds `want`: the
    thresholds said, and each class holding the (alpha-weighted) pixels GIMP's
    histogram counts in it (1024 bins: within DEEP_PIXELS, see above)."""
    import numpy as np
    bins = len(counts)
    # As levels 0..255 (a 1024-bin threshold reads as the level at or below it).
    levels = [k * 255 // (bins - 1) for k in want]
    t.check(f"{what}: thresholds {levels} from GIMP's own luminance histogram", got == levels,
            str(got))
    if result is None:
        t.check(f"{what}: result", False, "no result file")
        return
    # Class i painted i / (classes - 1) of white: 8-bit levels rounded, 16-bit samples
    # written from floats.
    n = len(want) + 1
    top = 65535 if result.dtype == np.uint16 else 255
    painted = np.floor(np.arange(n) * top / (n - 1) + 0.5)
    colour = result[..., :3]
    w = np.ones(colour.shape[:2]) if weight is None else weight
    grey = (colour[..., 0] == colour[..., 1]) & (colour[..., 1] == colour[..., 2])
    edges = [0] + [k + 1 for k in want] + [bins]
    bad = []
    for i in range(n):
        mine = (w * (colour[..., 0] == painted[i])).sum()
        theirs = counts[edges[i]:edges[i + 1]].sum()
        # GIMP weighs by its float alpha, an ulp from the stored byte's / 255.
        if abs(mine - theirs) > (DEEP_PIXELS if deep and host.gimp3
                                 else max(1e-6 * theirs, 1e-6)):
            bad.append(f"class {i}: {mine} != {theirs}")
    t.check(f"{what}: each class's pixels = GIMP's luminance count there", grey.all() and not bad,
            "; ".join(bad) or "colours not gray")


def check_profile_luminance(t, f, tmp, n, threshold):
    """GIMP 3 binarized in the profile's luminance: white where the luminance computed
    here from the profile's primaries and curves is above the threshold (but within
    0.05 of a level of it, where this arithmetic and babl's may round apart), not
    where sRGB's rule would put it."""
    import numpy as np
    before, after = read(tmp / f"bin-lum-{n}-before.png"), read(tmp / f"bin-lum-{n}.png")
    icc = tmp / f"bin-lum-{n}-before.icc"
    if before is None or after is None or not icc.exists() or not threshold:
        t.check(f"{f}: binarized in its profile's luminance", False, "missing file or profile")
        return
    lum = Profile(icc.read_bytes()).luminance(before[..., :3])
    clear = np.abs(lum - (threshold[0] + 0.5)) > 0.05
    if before.shape[2] == 4:
        clear &= before[..., 3] > 0  # GIMP's export blanks transparent pixels
    white = after[..., 0] == 255
    mine = (lum > threshold[0] + 0.5)
    srgb = gimp_luminance_bins(before[..., :3], "linear") > threshold[0]
    t.check(f"{f} binarize luminance: white where the profile's luminance is above "
            f"{threshold[0]} (and {int((srgb != mine).sum())} pixels would differ under "
            "sRGB's rule)", (white[clear] == mine[clear]).all(),
            f"{int((white[clear] != mine[clear]).sum())} pixels differ")


def check_luminance_move(t, what, host, tmp, name, mapping):
    """A luminance mode: each pixel's luminance (GIMP 3: the profile's, in its own
    linear light; GIMP 2.10: the stored samples') moves to `mapping` of the luminance
    bins within a level (where nothing clips), hue kept."""
    import cv2
    import numpy as np
    before, after = read(tmp / f"{name}-before.png"), read(tmp / f"{name}.png")
    icc = tmp / f"{name}-before.icc"
    if before is None or after is None or (host.gimp3 and not icc.exists()):
        t.check(what, False, "no result file or profile")
        return
    if host.gimp3:
        prof = Profile(icc.read_bytes())
        lum_b, lum_a = prof.luminance(before), prof.luminance(after)
        lin_b, lin_a = prof.linear(before), prof.linear(after)
    else:
        lum_b, lum_a = gimp_luminance(before), gimp_luminance(after)
        lin_b, lin_a = before / 255.0, after / 255.0
    target = mapping(np.clip(np.floor(lum_b + 0.5), 0, 255).astype(np.uint8)).astype(float)
    unclipped = after.max(axis=2) < 250
    err = np.abs(lum_a - target)[unclipped]
    t.check(f"{what}: the luminance moved to the mapping's (within 1 level where nothing "
            "clips)", np.percentile(err, 99.5) <= 1.0,
            f"99.5th percentile {np.percentile(err, 99.5):.2f}")
    hb = cv2.cvtColor(lin_b.astype(np.float32), cv2.COLOR_RGB2HSV)
    ha = cv2.cvtColor(lin_a.astype(np.float32), cv2.COLOR_RGB2HSV)
    chroma_b = before.max(axis=2).astype(int) - before.min(axis=2)
    chroma_a = after.max(axis=2).astype(int) - after.min(axis=2)
    sel = (chroma_b >= 24) & (chroma_a >= 24)
    d = np.abs(ha[..., 0] - hb[..., 0])[sel]
    d = np.minimum(d, 360 - d)
    t.check(f"{what}: hue kept (in the profile's linear light)",
            sel.sum() > 1000 and np.percentile(d, 99) < 4,
            f"{sel.sum()} pixels, 99th percentile hue shift "
            f"{np.percentile(d, 99) if sel.any() else 0:.2f} degrees")


if __name__ == "__main__":
    main()
