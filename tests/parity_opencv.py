#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parity with OpenCV and numpy: the CLI's Otsu, binarize, equalize and histogram CSV.

Usage: parity_opencv.py PATH-TO-gpu-histogram-cli
(a) Otsu threshold and --binarize output equal cv2.threshold(THRESH_BINARY|THRESH_OTSU)
    on the test photos made gray and on random gray images (P5);
(b) --equalize equals cv2.equalizeHist on those gray images and, channel by channel,
    on the RGB photos (P6);
(c) the --histogram CSV's value/red/green/blue columns equal np.bincount on RGB photos;
(d) its luminance column equals np.bincount of GIMP's luminance bin;
(e) on an RGBA image (P7), --binarize and --equalize keep alpha and the file type.
Exit status: 0 all passed, 1 something failed, 77 (meson: skipped) without cv2/numpy.
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import cv2
    import numpy as np
except ImportError as e:
    print(f"cannot import cv2/numpy ({e}): skipping")
    sys.exit(77)

from checks import Checks  # noqa: E402
from netpbm import load_png, read_pnm, write_pnm  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HIST_HEADER = "bin,value,red,green,blue,alpha,luminance"


def run_cli(cli, args):
    """Run the CLI; return its stdout or raise RuntimeError."""
    p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def threshold_line(stdout):
    for line in stdout.splitlines():
        if line.startswith("threshold:"):
            return int(line.split(":", 1)[1])
    raise RuntimeError("no 'threshold:' line in stdout")


def gimp_luminance_bins(rgb):
    """GIMP's luminance bin: float32 channels, weights summed in double, rounded half up."""
    r, g, b = (rgb[..., i].astype(np.float32) / np.float32(255) for i in range(3))
    lum = (r.astype(np.float64) * 0.22248840 + g.astype(np.float64) * 0.71690369
           + b.astype(np.float64) * 0.06060791).astype(np.float32)
    bins = (lum * np.float32(255)).astype(np.float64) + 0.5
    return np.clip(bins.astype(np.int64), 0, 255)


def first_difference(got, want):
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    diff = np.argwhere(got != want)
    if len(diff) == 0:
        return None
    at = tuple(diff[0])
    return f"{len(diff)} samples differ, first at {at}: {got[at]} != {want[at]}"


def random_grays():
    """Gray images of awkward sizes and histograms; fixed seed."""
    rng = np.random.default_rng(20240601)

    def uniform(h, w, lo=0, hi=256):
        return rng.integers(lo, hi, (h, w), dtype=np.uint8)

    two = np.where(rng.random((61, 39)) < 0.3, 30, 200).astype(np.uint8)
    adjacent = np.where(rng.random((17, 45)) < 0.5, 100, 101).astype(np.uint8)
    single = np.zeros((33, 21), np.uint8)
    single[5, 7] = 250
    clusters = rng.choice(np.array([20, 90, 230], np.uint8), (123, 77), p=[0.5, 0.3, 0.2])
    return {
        "1x1": uniform(1, 1),
        "1x257": uniform(1, 257),
        "300x1": uniform(300, 1),
        "2x2": uniform(2, 2),
        "37x53 uniform": uniform(37, 53),
        "3x999 uniform": uniform(3, 999),
        "479x641 uniform": uniform(479, 641),
        "64x48 all 77": np.full((64, 48), 77, np.uint8),
        "20x20 all 0": np.zeros((20, 20), np.uint8),
        "13x7 all 255": np.full((13, 7), 255, np.uint8),
        "61x39 two values": two,
        "17x45 values 100,101": adjacent,
        "33x21 one bright pixel": single,
        "123x77 three clusters": clusters,
        "201x333 skewed dark": np.clip(rng.exponential(20, (201, 333)), 0, 255).astype(np.uint8),
        "199x101 skewed bright": (255 - np.clip(rng.exponential(12, (199, 101)), 0, 255)).astype(np.uint8),
        "150x151 bimodal": (rng.beta(0.4, 0.4, (150, 151)) * 255.999).astype(np.uint8),
        "88x91 narrow": np.clip(rng.normal(128, 6, (88, 91)), 0, 255).astype(np.uint8),
        "64x64 narrow range": uniform(64, 64, 40, 48),
        "255x1 ramp": np.arange(255, dtype=np.uint8)[:, None],
    }


def check_otsu(checks, cli, tmp, name, gray):
    src, out = tmp / "in.pgm", tmp / "bin.pgm"
    write_pnm(src, gray)
    want_t, want = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    try:
        t = threshold_line(run_cli(cli, ["--binarize", str(out), "--channel", "value", str(src)]))
        kind, got = read_pnm(out)
        problem = (f"threshold {t} != cv2 {int(want_t)}" if t != int(want_t) else
                   f"output type {kind}" if kind != "P5" else first_difference(got, want))
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report(f"otsu+binarize {name}", problem)


def check_equalize(checks, cli, tmp, name, a):
    """a: gray or RGB; each channel must equal cv2.equalizeHist of it."""
    suffix = "pgm" if a.ndim == 2 else "ppm"
    src, out = tmp / f"in.{suffix}", tmp / f"eq.{suffix}"
    write_pnm(src, a)
    if a.ndim == 2:
        want = cv2.equalizeHist(a)
    else:
        want = np.dstack([cv2.equalizeHist(np.ascontiguousarray(a[..., c])) for c in range(3)])
    try:
        run_cli(cli, ["--equalize", str(out), str(src)])
        kind, got = read_pnm(out)
        problem = (f"output type {kind}" if kind != ("P5" if a.ndim == 2 else "P6")
                   else first_difference(got, want))
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report(f"equalize {name}", problem)


def check_histogram(checks, cli, tmp, name, rgb):
    src, out = tmp / "in.ppm", tmp / "hist.csv"
    write_pnm(src, rgb)
    want = {
        "value": np.bincount(rgb.max(axis=2).ravel(), minlength=256),
        "red": np.bincount(rgb[..., 0].ravel(), minlength=256),
        "green": np.bincount(rgb[..., 1].ravel(), minlength=256),
        "blue": np.bincount(rgb[..., 2].ravel(), minlength=256),
        "luminance": np.bincount(gimp_luminance_bins(rgb).ravel(), minlength=256),
    }
    try:
        run_cli(cli, ["--histogram", str(out), str(src)])
        lines = out.read_text().splitlines()
        if lines[0] != HIST_HEADER or len(lines) != 257:
            raise ValueError(f"expected header {HIST_HEADER!r} and 256 rows, got "
                             f"{lines[0]!r} and {len(lines) - 1} rows")
        rows = [line.split(",") for line in lines[1:]]
        if [int(r[0]) for r in rows] != list(range(256)):
            raise ValueError("bin column is not 0..255")
        columns = HIST_HEADER.split(",")
        got = {c: np.array([float(r[columns.index(c)]) for r in rows]) for c in want}
    except (OSError, RuntimeError, ValueError, IndexError, subprocess.TimeoutExpired) as e:
        for part in ("value/red/green/blue", "luminance"):
            checks.report(f"histogram {part} {name}", str(e))
        return
    problems = [f"{c} bin {int(np.argmax(got[c] != want[c]))}: {got[c][got[c] != want[c]][0]!r}"
                f" != {want[c][got[c] != want[c]][0]}"
                for c in ("value", "red", "green", "blue") if not np.array_equal(got[c], want[c])]
    checks.report(f"histogram value/red/green/blue {name}", "; ".join(problems) or None)
    bad = np.nonzero(got["luminance"] != want["luminance"])[0]
    checks.report(f"histogram luminance {name}",
                  f"{len(bad)} bins differ, first bin {bad[0]}: {got['luminance'][bad[0]]!r} != "
                  f"{want['luminance'][bad[0]]}" if len(bad) else None)


def check_alpha_kept(checks, cli, tmp, name, rgba):
    """--binarize (luminance, Otsu) and --equalize on RGBA keep alpha and the P7 type."""
    src, binarized, equalized = tmp / "in.pam", tmp / "bin.pam", tmp / "eq.pam"
    write_pnm(src, rgba)
    lum = gimp_luminance_bins(rgba[..., :3])
    try:
        t = threshold_line(run_cli(cli, ["--binarize", str(binarized), "--channel", "luminance",
                                         str(src)]))
        run_cli(cli, ["--equalize", str(equalized), str(src)])
        want = np.dstack([np.where(lum > t, 255, 0).astype(np.uint8)] * 3 + [rgba[..., 3]])
        kind_b, got_b = read_pnm(binarized)
        kind_e, got_e = read_pnm(equalized)
        problem = (f"output types {kind_b}, {kind_e}" if {kind_b, kind_e} != {"P7 RGB_ALPHA"} else
                   first_difference(got_b, want) or
                   first_difference(got_e[..., 3], rgba[..., 3]))
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report(f"alpha kept by binarize/equalize {name}", problem)


def check_backend(checks, cli, tmp, rgb):
    """The backend line is the expected one on this machine, and several files in one
    process count the same as one each. AUTO on a small image never waits for a GPU:
    exactly "cpu: N threads", nothing on stderr. --backend cuda: the GPU's name, or, with
    no usable GPU, the CPU's name saying why and one "gpu-histogram:" line on stderr.
    GPU_HISTOGRAM_BACKEND is removed: it would override --backend."""
    src = tmp / "backend.ppm"
    write_pnm(src, rgb)
    env = {k: v for k, v in os.environ.items() if k != "GPU_HISTOGRAM_BACKEND"}
    n = os.cpu_count()
    cpu = f"cpu: {n} thread{'' if n == 1 else 's'}"

    def run(*args):
        p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=300, env=env)
        lines = [ln for ln in p.stdout.splitlines() if ln.startswith("backend: ")]
        return p.returncode, [ln[len("backend: "):] for ln in lines], p.stdout, p.stderr

    rc, got, one, err = run(str(src))
    checks.report("AUTO on a small image: the backend is exactly the CPU's, stderr quiet",
                  None if rc == 0 and got == [cpu] and not err
                  else f"exit {rc}, {got} != [{cpu!r}], stderr {err!r}")
    rc, got, _, err = run("--backend", "cuda", str(src))
    told = [ln for ln in err.splitlines() if ln.startswith("gpu-histogram: ")]
    if got and got[0].startswith("cuda: "):
        problem = None if rc == 0 and not told else f"exit {rc}, stderr {err!r}"
    else:
        problem = (None if rc == 0 and len(got) == 1
                   and got[0].startswith(cpu + " (GPU failed: ") and len(told) == 1
                   else f"exit {rc}, backend {got}, stderr {err!r}")
    print("--backend cuda:", got[0] if got else None, "|", told[0] if told else None)
    checks.report("--backend cuda: the GPU's name, or the fallback told once", problem)
    rc, got, many, err = run(str(src), str(src), str(src))
    # The "generator:" line once above all, then a block per file.
    head, *blocks = many.split("file: ")
    generator, alone = one.split("\n", 1)
    checks.report("three files in one process: each as one alone",
                  None if rc == 0 and len(blocks) == 3 and head == generator + "\n"
                  and generator.startswith("generator: gpu-histogram-cli ")
                  and all(b.split("\n", 1)[1] == alone for b in blocks)
                  else f"exit {rc}, {len(blocks)} blocks, stderr {err!r}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: parity_opencv.py PATH-TO-gpu-histogram-cli")
    cli = sys.argv[1]
    photos = {p.name: load_png(p) for p in sorted((ROOT / "testimages").glob("*.png"))}
    rgb_photos = {n: a for n, a in photos.items() if a.ndim == 3}
    grays = {n if a.ndim == 2 else f"{n} made gray":
             a if a.ndim == 2 else cv2.cvtColor(a, cv2.COLOR_RGB2GRAY)
             for n, a in photos.items()}
    grays.update(random_grays())

    checks = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, gray in grays.items():
            check_otsu(checks, cli, tmp, name, gray)
        for name, a in list(grays.items()) + list(rgb_photos.items()):
            check_equalize(checks, cli, tmp, name, a)
        for name, rgb in rgb_photos.items():
            check_histogram(checks, cli, tmp, name, rgb)
        check_backend(checks, cli, tmp, next(iter(rgb_photos.values())))
        check_alpha_kept(checks, cli, tmp, "rgba_partial.png",
                         load_png(ROOT / "tests" / "fixtures" / "gimp" / "rgba_partial.png"))
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
