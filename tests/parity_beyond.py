#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parity of the operations beyond GIMP with OpenCV and scikit-image, through the CLI.

Usage: parity_beyond.py [--backend auto|cpu|cuda] PATH-TO-gpu-histogram-cli
(a) --clahe equals cv2.createCLAHE(clip, (tx, ty)).apply pixel for pixel on the test photos
    made gray and on random gray images of awkward sizes (1x1, 2x3, not divisible by the
    grid), grids 1x1, 8x8, 3x5, 16x16 and clip limits 0, 1, 2, 40;
(b) on RGB photos and an RGBA image, channel by channel (alpha kept); in luminance mode,
    gray-valued RGB gives the gray result in every channel;
(c) --match equals scikit-image's match_histograms float result (_match_cumulative_cdf)
    rounded half up, gray (where skimage returns that float64 array) and RGB
    (channel_axis=-1, where skimage stores the float into a uint8 image, truncating: the
    one difference, checked and counted), a gray reference for RGB and an RGB reference
    (its luminance) for gray;
(d) --multi-otsu K equals filters.threshold_multiotsu(classes=K), K = 3..5 (the vocabulary's
    classes; 2 is binarize), on photos made gray and random and adversarial images (few
    levels, ties); too few levels fail in both;
    --posterize paints class i of n + 1 with round(i * 255 / n), np.digitize(right=True);
(e) --stretch: each channel's levels from numpy's percentile (method inverted_cdf) of
    --low-percentile to that of --high-percentile are scikit-image's
    rescale_intensity(in_range=(lo, hi)) rounded to the nearest (within half a level
    of its float, and exactly OpenCV's equalizeHist rounding in float32), on photos,
    random images and adversarial ones (one level, two levels, 50/50); in luminance
    mode gray-valued RGB gives the gray result in every channel.
Exit status: 0 all passed, 1 something failed, 77 (meson: skipped) without cv2/skimage.
"""
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import cv2
    import numpy as np
    from skimage.exposure import match_histograms, rescale_intensity
    from skimage.exposure.histogram_matching import _match_cumulative_cdf
    from skimage.filters import threshold_multiotsu
except ImportError as e:
    print(f"cannot import cv2/numpy/skimage ({e}): skipping")
    sys.exit(77)

from checks import Checks  # noqa: E402
from netpbm import load_png, read_pnm, write_pnm  # noqa: E402
from parity_opencv import first_difference, gimp_luminance_bins, run_cli  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GRIDS = [(1, 1), (8, 8), (3, 5), (16, 16)]
CLIPS = [0, 1, 2, 40]


def random_grays():
    """Gray images of awkward sizes and histograms; fixed seed."""
    rng = np.random.default_rng(1717)

    def uniform(h, w, lo=0, hi=256):
        return rng.integers(lo, hi, (h, w), dtype=np.uint8)

    return {
        "1x1": uniform(1, 1),
        "2x3": uniform(2, 3),
        "3x2": uniform(3, 2),
        "1x41": uniform(1, 41),
        "37x53 uniform": uniform(37, 53),
        "101x67 blurred": cv2.GaussianBlur(uniform(101, 67), (0, 0), 3),
        "64x48 all 77": np.full((64, 48), 77, np.uint8),
        "61x39 two values": np.where(rng.random((61, 39)) < 0.3, 30, 200).astype(np.uint8),
        "123x77 three clusters": rng.choice(np.array([20, 90, 230], np.uint8), (123, 77),
                                            p=[0.5, 0.3, 0.2]),
        "201x333 skewed dark": np.clip(rng.exponential(20, (201, 333)), 0, 255).astype(np.uint8),
        "88x91 narrow": np.clip(rng.normal(128, 6, (88, 91)), 0, 255).astype(np.uint8),
        "40x40 six levels": rng.choice(np.arange(0, 256, 51).astype(np.uint8), (40, 40)),
        "30x30 symmetric": np.clip(np.abs(np.subtract.outer(np.arange(30), np.arange(30))) * 4 + 60,
                                   0, 255).astype(np.uint8),
    }


class Cli:
    def __init__(self, path, backend):
        self.path, self.backend = path, backend

    def __call__(self, args):
        return run_cli(self.path, ["--backend", self.backend] + args)


def pnm_suffix(a):
    return {1: "pgm", 3: "ppm"}.get(1 if a.ndim == 2 else a.shape[2], "pam")


def cli_image(cli, tmp, a, args, out_option):
    """Write a, run the CLI with out_option OUT, return (stdout, kind, result)."""
    src, out = tmp / f"in.{pnm_suffix(a)}", tmp / f"out.{pnm_suffix(a)}"
    write_pnm(src, a)
    stdout = cli(args + [out_option, str(out), str(src)])
    kind, got = read_pnm(out)
    return stdout, kind, got


def cv_clahe(a, clip, grid):
    c = cv2.createCLAHE(clipLimit=clip, tileGridSize=grid)
    if a.ndim == 2:
        return c.apply(a)
    return np.dstack([c.apply(np.ascontiguousarray(a[..., k])) for k in range(a.shape[2])])


def check_clahe(checks, cli, tmp, name, a, clip, grid, mode="channels"):
    want = cv_clahe(a if a.ndim == 2 else a[..., :3], clip, grid)
    if a.ndim == 3 and a.shape[2] == 4:
        want = np.dstack([want, a[..., 3]])  # alpha kept
    try:
        _, _, got = cli_image(cli, tmp, a, ["--clahe-params", f"{clip},{grid[0]},{grid[1]}",
                                            "--equalize-mode", mode], "--clahe")
        problem = first_difference(got, want)
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report(f"clahe {mode} clip {clip} grid {grid[0]}x{grid[1]} {name}", problem)


def check_clahe_luminance(checks, cli, tmp, name, gray):
    rgb = np.dstack([gray] * 3)
    want = np.dstack([cv_clahe(gray, 2, (8, 8))] * 3)
    try:
        _, _, got = cli_image(cli, tmp, rgb, ["--equalize-mode", "luminance"], "--clahe")
        problem = first_difference(got, want)
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report(f"clahe luminance of gray-valued RGB {name}", problem)


def check_match(checks, cli, tmp, name, a, ref, stats):
    """Ours == round half up of skimage's float, per channel; skimage's uint8 == its floor."""
    if a.ndim == 3 and ref.ndim == 2:
        planes = [(a[..., k], ref) for k in range(3)]
    elif a.ndim == 2 and ref.ndim == 3:
        planes = [(a, gimp_luminance_bins(ref).astype(np.uint8))]
    elif a.ndim == 3:
        planes = [(a[..., k], ref[..., k]) for k in range(3)]
    else:
        planes = [(a, ref)]
    floats = [_match_cumulative_cdf(s, r) for s, r in planes]
    want = np.floor(np.dstack(floats) + 0.5).astype(np.uint8)
    want = want[..., 0] if a.ndim == 2 else want
    if a.ndim == ref.ndim == 2:
        # A gray image comes back as float64: the float itself, which we round.
        sk = match_histograms(a, ref)
        if not np.array_equal(sk, floats[0]):
            checks.report(f"match {name}", "skimage's result is not _match_cumulative_cdf's")
            return
    elif a.ndim == ref.ndim:
        # channel_axis: skimage stores each float into a uint8 image, truncating.
        sk = match_histograms(a, ref, channel_axis=-1)
        if not np.array_equal(sk, np.floor(np.dstack(floats)).astype(np.uint8)):
            checks.report(f"match {name}", "skimage's uint8 result is not its float truncated")
            return
        stats["samples"] += sk.size
        stats["differ"] += int(np.count_nonzero(sk != want))
    refpath = tmp / f"ref.{pnm_suffix(ref)}"
    write_pnm(refpath, ref)
    try:
        _, _, got = cli_image(cli, tmp, a, ["--reference", str(refpath)], "--match")
        problem = first_difference(got, want)
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report(f"match {name}", problem)


def stretch_model(a, low, high):
    """(ours as the vocabulary defines it, scikit-image's float) per channel."""
    a3 = a.reshape(a.shape[0], a.shape[1], -1)
    want, sk = np.empty_like(a3), np.empty(a3.shape)
    for c in range(a3.shape[2]):
        ch = a3[..., c]
        lo, hi = (int(v) for v in np.percentile(ch, (low, high), method="inverted_cdf"))
        if hi <= lo:
            lo, hi = 0, 255
        v = np.arange(256)
        lut = np.rint(np.float32(np.clip(v - lo, 0, None)) * (np.float32(255) / np.float32(hi - lo)))
        lut = np.where(v <= lo, 0, np.where(v >= hi, 255, np.clip(lut, 0, 255))).astype(np.uint8)
        want[..., c] = lut[ch]
        sk[..., c] = rescale_intensity(ch, in_range=(lo, hi), out_range=(0.0, 255.0))
    return want.reshape(a.shape), sk.reshape(a.shape)


def check_stretch(checks, cli, tmp, name, a, low, high, mode="each-channel"):
    try:
        _, _, got = cli_image(cli, tmp, a, ["--low-percentile", str(low), "--high-percentile",
                                            str(high), "--mode", mode], "--stretch")
        got = got.reshape(a.shape)
        if mode == "luminance":
            want, sk = stretch_model(a[..., 0], low, high)
            want, sk = np.dstack([want] * 3), np.dstack([sk] * 3)
        else:
            want, sk = stretch_model(a, low, high)
        problem = first_difference(got, want)
        worst = np.abs(got - sk).max()
        if problem is None and worst > 0.5 + 1e-3:
            problem = f"{worst:.3f} levels from scikit-image's rescale_intensity"
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report(f"stretch {mode} {low}..{high} {name}", problem)


def thresholds_line(stdout):
    for line in stdout.splitlines():
        if line.startswith("thresholds:"):
            return [int(v) for v in line.split(":", 1)[1].split(",")]
    raise RuntimeError("no 'thresholds:' line in stdout")


def check_multi_otsu(checks, cli, tmp, name, gray, classes):
    try:
        want = [int(t) for t in threshold_multiotsu(gray, classes=classes)]
    except ValueError:
        want = None
    what = f"multi-otsu {classes} classes {name}"
    try:
        stdout, _, got = cli_image(cli, tmp, gray, ["--multi-otsu", str(classes)], "--posterize")
    except RuntimeError as e:
        ok = want is None and "different level" in str(e)
        checks.report(what, None if ok else str(e))
        return
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        checks.report(what, str(e))
        return
    t = thresholds_line(stdout)
    if want is None:
        checks.report(what, f"skimage refuses, we gave {t}")
        return
    n = classes - 1
    levels = np.floor(np.arange(classes) * 255 / n + 0.5).astype(np.uint8)
    posterized = levels[np.digitize(gray, want, right=True)]
    checks.report(what, f"thresholds {t} != skimage {want}" if t != want
                  else first_difference(got, posterized))


def main():
    args = sys.argv[1:]
    backend = "auto"
    if len(args) == 3 and args[0] == "--backend":
        backend, args = args[1], args[2:]
    if len(args) != 1:
        raise SystemExit("usage: parity_beyond.py [--backend B] PATH-TO-gpu-histogram-cli")
    cli = Cli(args[0], backend)
    photos = {p.name: load_png(p) for p in sorted((ROOT / "testimages").glob("*.png"))}
    rgb_photos = {n: a for n, a in photos.items() if a.ndim == 3}
    grays = {n if a.ndim == 2 else f"{n} made gray":
             a if a.ndim == 2 else cv2.cvtColor(a, cv2.COLOR_RGB2GRAY)
             for n, a in photos.items()}
    grays.update(random_grays())
    rgba = load_png(ROOT / "tests" / "fixtures" / "gimp" / "rgba_partial.png")

    checks = Checks()
    stats = {"samples": 0, "differ": 0}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, gray in grays.items():
            for grid in GRIDS:
                for clip in CLIPS:
                    check_clahe(checks, cli, tmp, name, gray, clip, grid)
        for name, a in list(rgb_photos.items()) + [("rgba_partial.png", rgba)]:
            for clip, grid in [(2, (8, 8)), (40, (3, 5)), (0, (16, 16))]:
                check_clahe(checks, cli, tmp, name, a, clip, grid)
        for name in list(grays)[:3]:
            check_clahe_luminance(checks, cli, tmp, name, grays[name])

        gray_items = list(grays.items())
        for (n1, a), (n2, r) in zip(gray_items, gray_items[1:] + gray_items[:1]):
            check_match(checks, cli, tmp, f"{n1} to {n2}", a, r, stats)
        rgb_items = list(rgb_photos.items())
        for (n1, a), (n2, r) in zip(rgb_items, rgb_items[1:] + rgb_items[:1]):
            check_match(checks, cli, tmp, f"{n1} to {n2}", a, r, stats)
        n1, a = rgb_items[0]
        n2, r = gray_items[0]
        check_match(checks, cli, tmp, f"{n1} to gray {n2}", a, r, stats)
        check_match(checks, cli, tmp, f"gray {n2} to {n1}", r, a, stats)

        for name, gray in grays.items():
            for classes in range(3, 6):
                check_multi_otsu(checks, cli, tmp, name, gray, classes)

        rng = np.random.default_rng(41)
        odd = {"one level": np.full((40, 50), 77, np.uint8),
               "two levels": np.where(rng.random((40, 50)) < 0.5, 10, 200).astype(np.uint8),
               "random RGB": rng.integers(40, 200, (33, 47, 3), dtype=np.uint8)}
        for name, a in list(grays.items())[:4] + list(rgb_photos.items()) + list(odd.items()):
            for low, high in ((1, 99), (0, 100), (5, 95), (0.5, 99.5), (50, 50)):
                check_stretch(checks, cli, tmp, name, a, low, high)
        for name in list(grays)[:2]:
            check_stretch(checks, cli, tmp, f"gray-valued RGB {name}", np.dstack([grays[name]] * 3),
                          2, 98, "luminance")
    print(f"match, RGB: scikit-image's uint8 result truncates its float; rounding it half up "
          f"changes {stats['differ']} of {stats['samples']} samples")
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
