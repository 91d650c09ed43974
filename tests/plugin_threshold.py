#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Binarize through GIMP's own threshold: the same bytes as the plug-in's pixel path.

plug-in-gpu-histogram-binarize has GIMP do the pixel pass (gimp-drawable-threshold
in GIMP 2.10, the gimp:threshold filter merged in GIMP 3, in GIMP's process) where that gives exactly the pixels its own pass gives
(plugin/core/operations.c, threshold_exact).  This test proves it in a real
gimp-console of either GIMP, on every input that decides it:

- every 8-bit colour: a 4096x4096 RGB image holding each of the 2^24 colours
  once, binarized on value, red and luminance (Otsu and fixed levels);
- every (level, threshold) pair: an image per channel with the 256 levels in a
  row and one row per threshold 0..254, each row binarized at its own
  threshold inside a one-row selection (value, red, green, blue, alpha of RGB
  and RGBA, value and alpha of gray and gray+alpha);
- luminance at every threshold: per threshold, the 512 colours whose GIMP 2.10
  luminance lies nearest the edge of the threshold's bin, on both sides;
- partial alpha (every level) under a soft selection holding every selection
  level, and under a rectangle, RGBA and gray+alpha;
- an 8-bit layer with a colour profile other than sRGB (either path, the same
  pixels);
- what must stay on the pixel path: 16-bit, float and 8-bit linear layers,
  and luminance in either GIMP (babl's u8-to-float path differs by machine,
  and a weighted sum can cross a bin's edge by an ulp: once seen in CI, 3 of
  the edge colours below in GIMP 2.10; GIMP 3's histogram also weighs linear
  light, its threshold the stored samples).  Their pixel path is still
  checked against the engine, the luminance edge colours included.

The commands run in three gimp-console runs: GPU_HISTOGRAM_BINARIZE=gimp (test-only: a
binarize GIMP's threshold would not do fails, so what passes was delegated),
=pixels (the plug-in moves the pixels itself, as before) and, for the selection
and precision cases, unset (what users get).  The delegated results must equal
the pixel path's byte for byte, and the engine's gh_op_binarize as
gpu-histogram-cli computes it on the same pixels (with the threshold Otsu
chose); the cases kept on the pixel path must be refused under =gimp.
One allowance: GIMP's blend of a partly selected pixel is not always the same
from one run to the next (1 level at a handful of pixels, under load: seen
in GIMP 3 between two runs that both delegate, and in GIMP 2.10 in one run
of several), so there the soft-selection cases allow 1 level at 1 in 1000 of
those samples.  Everything else is exact.

The cases come in three parts, each a test of its own so that each takes
a fraction of its time limit: `colours` (every 8-bit colour), `rows`
(every level and threshold) and `selections` (partial alpha under
selections, the precisions and the profile); no PART runs all three.

Usage: plugin_threshold.py [--host gimp2|gimp3] PATH-TO-gpu-histogram PATH-TO-gpu-histogram-cli [PART]
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import subprocess
import tempfile
from pathlib import Path

from plugin_gimp import GimpConsole, Tally, parse_args, require_gimp, scm_str

CHANNELS = {"value": 0, "red": 1, "green": 2, "blue": 3, "alpha": 4, "luminance": 5}
WEIGHTS = (0.22248840, 0.71690369, 0.06060791)
LUM_SIDE = 256  # colours each side of a luminance bin's edge, per threshold


def bin_f32(v):
    """GIMP's 256-bin bin of float samples (gpu/engine/pixel.h gh_bin_f32)."""
    import numpy as np
    t = np.clip(np.asarray(v, np.float32) * np.float32(255.0), 0, 255).astype(np.float32)
    return (t.astype(np.float64) + 0.5).astype(np.int64)


def edge(t):
    """The least float whose bin is above t (what the plug-in passes as low)."""
    import numpy as np
    lo, hi = 0, 0x3F800000
    while lo < hi:
        mid = (lo + hi) // 2
        if bin_f32(np.array([mid], np.uint32).view(np.float32))[0] > t:
            hi = mid
        else:
            lo = mid + 1
    return np.array([lo], np.uint32).view(np.float32)[0]


def perceptual_luminance(rgb):
    """GIMP 2.10's (and GIMP's threshold's) luminance of 8-bit samples, as float."""
    import numpy as np
    f = [(rgb[..., k] / 255.0).astype(np.float32).astype(np.float64) for k in range(3)]
    return (f[0] * WEIGHTS[0] + f[1] * WEIGHTS[1] + f[2] * WEIGHTS[2]).astype(np.float32)


def make_inputs(tmp):
    """Writes the test images; returns {name: (file, array, kind)}."""
    import cv2
    import numpy as np
    rng = np.random.default_rng(14)
    files = {}

    def save(name, a):
        path = tmp / name
        if a.ndim == 3 and a.shape[2] == 2:
            # cv2 writes no gray+alpha PNG: write it with a tiny encoder.
            write_png_gray_alpha(path, a)
        elif a.ndim == 2:
            cv2.imwrite(str(path), a)
        else:
            cv2.imwrite(str(path), a[..., [2, 1, 0, 3][:a.shape[2]]],
                        [cv2.IMWRITE_PNG_COMPRESSION, 1])
        files[name] = (path, a)

    # Every 8-bit colour once.
    k = np.arange(1 << 24, dtype=np.uint32)
    all_rgb = np.stack([(k >> 16) & 255, (k >> 8) & 255, k & 255], axis=1)
    save("all.ppm", all_rgb.astype(np.uint8).reshape(4096, 4096, 3))

    # Row t: the 256 levels of one channel (columns), binarized at t.
    level = np.tile(np.arange(256, dtype=np.uint8), (255, 1))

    def others(shape, top=None):
        r = rng.integers(0, 256, shape, dtype=np.int64)
        return (r if top is None else r % (top.astype(np.int64) + 1)).astype(np.uint8)

    for c, name in enumerate(("red", "green", "blue")):
        a = others((255, 256, 3))
        a[..., c] = level
        save(f"rows-{name}.ppm", a)
    # Value: the level in one of R, G, B (at random), the others at most it.
    a = np.stack([others((255, 256), level) for _ in range(3)], axis=2)
    a[np.arange(255)[:, None], np.arange(256)[None, :], rng.integers(0, 3, (255, 256))] = level
    save("rows-value.ppm", a)
    rgba = np.dstack([a, others((255, 256))])
    save("rows-value-rgba.png", rgba)
    save("rows-alpha-rgba.png", np.dstack([others((255, 256, 3)), level]))
    save("rows-value-gray.pgm", level.copy())
    save("rows-value-graya.png", np.dstack([level, others((255, 256))]))
    save("rows-alpha-graya.png", np.dstack([others((255, 256)), level]))

    # Luminance: per threshold t, the colours nearest the edge of bin t.
    lum = perceptual_luminance(all_rgb.reshape(4096, 4096, 3)).ravel()
    order = np.argsort(lum, kind="stable")
    sorted_lum = lum[order]
    rows = []
    for t in range(255):
        i = int(np.searchsorted(sorted_lum, edge(t), side="left"))
        i = min(max(i, LUM_SIDE), len(order) - LUM_SIDE)  # bin 0's edge has few below
        rows.append(all_rgb[order[i - LUM_SIDE:i + LUM_SIDE]])
    save("rows-luminance.ppm", np.stack(rows).astype(np.uint8))

    # A soft selection with every level (its alpha): unselected at the left,
    # fully selected at the right, every level between.  (GIMP's own
    # feathering is not the same from one GIMP 3 run to the next.)
    yy, xx = np.mgrid[0:384, 0:512]
    sel = np.where(xx < 128, 0, np.where(xx >= 384, 255, (xx * 7 + yy * 13) % 256))
    save("soft-mask.png", np.dstack([np.zeros((384, 512), np.uint8), sel.astype(np.uint8)]))
    # Partial alpha and every colour level, for the soft selections.
    save("soft-rgba.png", np.dstack([rng.integers(0, 256, (384, 512, 3), dtype=np.uint8),
                                     rng.integers(0, 256, (384, 512), dtype=np.uint8)]))
    save("soft-graya.png", rng.integers(0, 256, (384, 512, 2), dtype=np.uint8))
    return files


def write_png_gray_alpha(path, a):
    import struct
    import zlib
    h, w = a.shape[:2]
    raw = b"".join(b"\0" + a[y].tobytes() for y in range(h))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 4, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def read_image(path):
    """8-bit result in file order (gray, gray+alpha, RGB, RGBA)."""
    import cv2
    a = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if a is None:
        return None
    if a.ndim == 2:
        return a
    if a.shape[2] == 3:
        return a[..., ::-1]
    rgba = a[..., [2, 1, 0, 3]]
    return rgba[..., [0, 3]] if path.suffix == ".png" and path.read_bytes()[25] == 4 else rgba


# (tag, input, channel, threshold, selection): threshold "rows" = row t at t;
# selection "mask" = every level of selection (soft-mask.png's alpha).
PARTS = ("colours", "rows", "selections")


def part_of(tag):
    """Which part a case belongs to (the precisions and the profile go with
    the selections: the one run without the variable is theirs)."""
    return "colours" if tag.startswith("all ") else "rows" if tag.endswith(" rows") \
        else "selections"


def cases(part=None):
    """The cases of `part` (None: every part)."""
    return [c for c in every_case() if part in (None, part_of(c[0]))]


def every_case():
    out = []
    # Value at every threshold: the rows below (value is one sample's level).
    for t in (-1, 127):
        out.append((f"all value {t}", "all.ppm", "value", t, None))
    for t in (-1, 100):
        out.append((f"all luminance {t}", "all.ppm", "luminance", t, None))
    out.append(("all red -1", "all.ppm", "red", -1, None))
    for name, channel in (("rows-red.ppm", "red"), ("rows-green.ppm", "green"),
                          ("rows-blue.ppm", "blue"), ("rows-value.ppm", "value"),
                          ("rows-value-rgba.png", "value"), ("rows-alpha-rgba.png", "alpha"),
                          ("rows-value-gray.pgm", "value"), ("rows-value-graya.png", "value"),
                          ("rows-alpha-graya.png", "alpha"), ("rows-luminance.ppm", "luminance")):
        out.append((f"{name} {channel} rows", name, channel, "rows", None))
    for name, channel, t in (("soft-rgba.png", "value", 127), ("soft-rgba.png", "luminance", -1),
                             ("soft-rgba.png", "alpha", 100), ("soft-rgba.png", "green", 30),
                             ("soft-graya.png", "value", -1), ("soft-graya.png", "alpha", 200)):
        out.append((f"{name} {channel} {t} soft selection", name, channel, t, "mask"))
        out.append((f"{name} {channel} {t} rectangle", name, channel, t, "(rect 17 9 301 203)"))
    return out


def has_alpha(name):
    return "rgba" in name or "graya" in name


def opaque(path):
    return path.with_name(path.stem + "-opaque" + path.suffix)


# Precisions GIMP's threshold is not trusted with: kept on the pixel path.
PRECISIONS = ("PRECISION-U16-GAMMA", "PRECISION-FLOAT-GAMMA", "PRECISION-U8-LINEAR")
# An 8-bit layer in another colour space (Adobe RGB (1998) assigned): either
# path, but the same pixels.
PROFILE = "/usr/share/color/icc/ghostscript/a98.icc"
PROFILED = {"profile value": 0, "profile luminance": 5}


def commands(host, files, tmp, part, light=False):
    """`part`'s commands (None: every part's); light: the soft and precision
    cases only (the run without the variable: it takes the same decisions)."""
    cmds = {}
    for tag, name, channel, t, sel in cases(part):
        if light and not sel:
            continue
        src = files[name][0]
        out = tmp / ("res-" + tag.replace(" ", "_") + src.suffix)
        ch = CHANNELS[channel]
        if t == "rows":
            width = files[name][1].shape[1]
            body = (f"(gh-rows img drw {ch} {width})"
                    f"(gh-save img drw {scm_str(out)})")
        else:
            body = (f"(gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE img drw {ch} {t}))"
                    f"(gh-save img drw {scm_str(out)})")
        if has_alpha(name):
            # PNG drops the colour of transparent pixels: saved again with
            # alpha made opaque (levels on alpha only), colours as they are.
            body += (" (gimp-selection-none img)"
                     " (gimp-drawable-levels drw HISTOGRAM-ALPHA 0 1 TRUE 1 1 1 TRUE)"
                     f" (gh-save img drw {scm_str(opaque(out))})")
        if sel == "mask":
            select = f"(gh-select-alpha img {scm_str(files['soft-mask.png'][0])})"
        else:
            select = f"(gh-select img '{sel})" if sel else ""
        cmds[tag] = (f"(let* ((l (gh-load {scm_str(src)})) (img (car l)) (drw (cadr l)))"
                     f" {select} (gh-guard (lambda () {body})))")
    if part not in (None, "selections"):
        return cmds
    for p in PRECISIONS:
        out = tmp / f"res-{p}.png"
        cmds[p] = (f"(let* ((l (gh-load {scm_str(files['soft-rgba.png'][0])})) (img (car l))"
                   f" (drw (cadr l)))"
                   f" (gimp-image-convert-precision img {host.precision(p)})"
                   f" (gh-guard (lambda () (gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE img drw 0 -1))"
                   f" (gh-save img drw {scm_str(out)}))))")
    if Path(PROFILE).exists():
        for tag, ch in PROFILED.items():
            out = tmp / f"res-{tag.replace(' ', '_')}.png"
            cmds[tag] = (f"(let* ((l (gh-load {scm_str(files['soft-rgba.png'][0])})) (img (car l))"
                         f" (drw (cadr l)))"
                         f" (gimp-image-set-color-profile-from-file img {scm_str(PROFILE)})"
                         f" (gh-say \"PROFILE\" 1)"
                         f" (gh-guard (lambda () (gh-say \"T\" (gh-binarize RUN-NONINTERACTIVE"
                         f" img drw {ch} -1)) (gh-save img drw {scm_str(out)}))))")
    return cmds


ROWS_SCRIPT = r"""
;; Row t of the drawable binarized at threshold t, a one-row selection each.
(define (gh-rows img drw ch width)
  (gimp-context-set-feather FALSE)
  (gimp-context-set-antialias FALSE)
  (let loop ((t 0))
    (if (<= t 254)
        (begin
          (gimp-image-select-rectangle img CHANNEL-OP-REPLACE 0 t width 1)
          (gh-binarize RUN-NONINTERACTIVE img drw ch t)
          (loop (+ t 1)))))
  (gimp-selection-none img))
;; The selection made of a file's alpha, exactly.
(define (gh-select-alpha img file)
  (let ((m (car (gimp-file-load-layer RUN-NONINTERACTIVE img file))))
    (gimp-image-insert-layer img m 0 0)
    (gimp-image-select-item img CHANNEL-OP-REPLACE m)
    (gimp-image-remove-layer img m)))
"""


def cli_binarize(cli, tmp, a, channel, t, luminance):
    """The engine's binarize of `a` (gh_op_binarize through gpu-histogram-cli)."""
    from netpbm import read_pnm, write_pnm
    src, dst = tmp / "cli-in.pam", tmp / "cli-out.pam"
    write_pnm(src, a)
    p = subprocess.run([cli, "--backend", "cpu", "--luminance", luminance, "--channel", channel,
                        "--threshold", str(t), "--binarize", str(dst), str(src)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stdout)
    level = [int(line.split()[1]) for line in p.stdout.splitlines() if line.startswith("threshold:")]
    return read_pnm(dst)[1].reshape(a.shape), level[0]


def result(tmp, tag, chunk):
    """(chunk, REFUSED fields, result image, thresholds said) of one command."""
    import numpy as np
    path = next(tmp.glob("res-" + tag.replace(" ", "_") + ".*"), None)
    img = read_image(path) if path else None
    if img is not None and opaque(path).exists():
        # Alpha from the result, colour from its opaque copy.
        img = np.dstack([read_image(opaque(path))[..., :-1], img[..., -1:]])
    return chunk, chunk.fields("REFUSED"), img, [int(float(f[0])) for f in chunk.fields("T")]


def same(t, what, got, want, partly=None):
    """got, want: (image, thresholds).  partly: where the selection is partial,
    where GIMP's blend is not always the same from one run to the next
    (the module's docstring): there, up to 1 level apart at 1 in 1000
    samples at most."""
    import numpy as np
    (a, la), (b, lb) = got[:2], want[:2]
    if a is None or b is None or a.shape != b.shape:
        t.check(what, False, f"no result or shapes differ: "
                f"{None if a is None else a.shape} {None if b is None else b.shape}")
        return
    differ = a != b
    if partly is None:
        diff = int(differ.sum())
        t.check(what, diff == 0 and la == lb, f"{diff} samples differ; thresholds {la} vs {lb}")
        return
    partly = np.broadcast_to(partly[..., None], a.shape) if a.ndim == 3 else partly
    exact = int((differ & ~partly).sum())
    loose = int((differ & partly).sum())
    far = int((np.abs(a.astype(int) - b) > 1).sum())
    t.check(what + " (where partly selected: within GIMP's own spread)",
            exact == 0 and far == 0 and loose <= partly.sum() // 1000 and la == lb,
            f"{exact} samples differ outside, {loose} inside ({far} by more than 1); "
            f"thresholds {la} vs {lb}")
    if loose:
        print(f"     {loose} partly selected samples 1 level apart")


def main():
    host, plugin, cli, part = parse_args("plugin_threshold.py", extra=("cli", "part"))
    require_gimp(host)
    import numpy as np
    t = Tally()
    if not cli:
        t.check("gpu-histogram-cli given", False, "usage: ... PLUGIN CLI")
        t.finish()
    if part not in (None,) + PARTS:
        t.check(f"a part of {PARTS}", False, f"not {part!r}")
        t.finish()
    # Only the selections' part has cases for the run without the variable.
    modes = ("gimp", "pixels") + ((None,) if part in (None, "selections") else ())

    with tempfile.TemporaryDirectory(prefix="gh-threshold-", dir="/tmp") as d:
        inputs = Path(d)
        files = make_inputs(inputs)
        rows_script = inputs / "gh-rows.scm"
        rows_script.write_text(ROWS_SCRIPT)
        results = {}
        for mode in modes:
            with GimpConsole(plugin, host, scripts=[rows_script]) as s:
                if mode:
                    s.env["GPU_HISTOGRAM_BINARIZE"] = mode
                out = s.run(commands(host, files, s.tmp, part, light=mode is None))
                results[mode] = {tag: result(s.tmp, tag, chunk) for tag, chunk in out.items()}

        mask = files["soft-mask.png"][1][..., 1]
        partly = (mask > 0) & (mask < 255)
        for tag, name, channel, thr, sel in cases(part):
            chunk, refused, img, levels = results["gimp"][tag]
            pixels = results["pixels"][tag]
            if channel == "luminance":
                t.check(f"{tag}: luminance stays on the pixel path (refused under =gimp)",
                        len(refused) == 1 and "GPU_HISTOGRAM_BINARIZE=gimp" in chunk.text, chunk.text)
                mine = pixels
            else:
                t.check(f"{tag}: done by GIMP's threshold", chunk.ok and not refused and img is not None,
                        chunk.text[-2000:])
                for mode, what in (("pixels", "the pixel path"), (None, "the variable unset")):
                    if mode in results and tag in results[mode]:
                        same(t, f"{tag}: delegated = {what} byte for byte", (img, levels),
                             results[mode][tag][2:], partly if sel == "mask" else None)
                mine = results["gimp"][tag]
            if sel:
                continue
            # The engine's gh_op_binarize on the same pixels.
            a = files[name][1]
            if thr == "rows":
                want = np.empty_like(a)
                for r in range(255):
                    want[r:r + 1] = cli_binarize(cli, inputs, a[r:r + 1], channel, r,
                                                 host.luminance)[0]
                same(t, f"{tag}: = gpu-histogram-cli (gh_op_binarize) byte for byte",
                     (mine[2], []), (want, []))
                white = (want[..., 0] if want.ndim == 3 else want) == 255
                if channel != "luminance":
                    t.check(f"{tag}: every row has white", all(white[r].any() for r in range(255)))
            else:
                want, level = cli_binarize(cli, inputs, a, channel, thr, host.luminance)
                same(t, f"{tag}: = gpu-histogram-cli (gh_op_binarize) byte for byte",
                     (mine[2], mine[3]), (want, [level]))

        for p in PRECISIONS if part in (None, "selections") else ():
            chunk, refused, _, _ = results["gimp"][p]
            t.check(f"{p}: stays on the pixel path (refused under =gimp)",
                    len(refused) == 1 and "GPU_HISTOGRAM_BINARIZE=gimp" in chunk.text, chunk.text)
            same(t, f"{p}: the variable unset = the pixel path byte for byte",
                 results[None][p][2:], results["pixels"][p][2:])
        for tag in PROFILED if Path(PROFILE).exists() and part in (None, "selections") else ():
            chunk, refused, img, levels = results["gimp"][tag]
            if not chunk.fields("PROFILE"):
                # GIMP 2.10 on Debian 12: "Operation not supported".
                print(f"skip {tag}: this GIMP assigns no profile ({chunk.text.strip()[-200:]})")
                continue
            path = "refused under =gimp: the pixel path" if refused else "done by GIMP's threshold"
            same(t, f"{tag}: {path}; the variable unset = the pixel path byte for byte",
                 results[None][tag][2:], results["pixels"][tag][2:])
            if not refused:
                same(t, f"{tag}: delegated = the pixel path byte for byte",
                     (img, levels), results["pixels"][tag][2:])
    t.finish()


if __name__ == "__main__":
    main()
