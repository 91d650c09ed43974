# SPDX-License-Identifier: GPL-3.0-or-later
"""The CLI's whole CLAHE call beside OpenCV's, in one run: a file in, a
file out, process start to exit (the CLI counts the statistics it prints,
reads the image whole, applies CLAHE and writes the result), on 12 MP
files made from the test photo (resized to 4000x3000): gray PGM, RGB PPM
and gray PNG.  Beside it, in the same rounds:

  - the CLI's --equalize on the same file: the strip path, which reads and
    writes the same bytes a strip at a time;
  - the engine's own whole call (gh_clahe_image, gpu-histogram-bench
    --clahe) on the same pixels in memory;
  - OpenCV's createCLAHE(2.0, (8, 8)).apply alone, on the image in memory
    (RGB: split, apply per channel, merge), the figure the engine is held
    to;
  - OpenCV's imread, apply and imwrite of the same file, in this process.

    /usr/bin/python3 bench/clahe_cli.py CLI_EXE BENCH_EXE PHOTO
                                        [--repeat R] [--rounds N]

The CLI runs CLAHE each channel (--mode each-channel: OpenCV's, and a gray
image's only channel), 8x8 tiles, clip 2, on all threads, as OpenCV does.
A round makes R calls of each, call by call in turn (the engine's R in its
own process), and takes their medians; each figure is the best of the
rounds' medians, so load from other work on a shared machine weighs on
all alike.  "decode" is the CLI's own --timings figure: reading
the file whole once, from which the statistics and CLAHE both read.  "rest vs
equalize": the CLAHE call less the engine's CLAHE, over the equalize call
(which still holds its own apply, a few ms): 1.00 where the whole path
reads, counts and writes as cheaply as the strip path.
"""
import argparse
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np


def timed(work):
    """(ms, what work returned)."""
    t0 = time.perf_counter()
    got = work()
    return (time.perf_counter() - t0) * 1e3, got


def cli_ms(exe, args):
    """One CLI call: (wall ms, its --timings decode ms)."""
    ms, p = timed(lambda: subprocess.run([exe, *args, "--timings"], capture_output=True,
                                         text=True))
    if p.returncode:
        raise SystemExit(f"{exe} {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return ms, float(re.search(r"decode ([0-9.]+) ms", p.stderr).group(1))


def engine_ms(exe, path, repeat):
    """The engine's whole CLAHE call on the file's pixels, median ms."""
    p = subprocess.run([exe, "--repeat", str(repeat), "--threads", "0", "--clahe", str(path)],
                       capture_output=True, text=True)
    rows = [line.split(",") for line in p.stdout.splitlines() if line.startswith("clahe-row,")]
    if p.returncode or not rows:
        raise SystemExit(f"{exe}: exit {p.returncode}\n{p.stderr}")
    return float(rows[0][7])


def apply(clahe, img):
    if img.ndim == 2:
        return clahe.apply(img)
    return cv2.merge([clahe.apply(c) for c in cv2.split(img)])


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("exe")
    ap.add_argument("bench")
    ap.add_argument("photo")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    bgr = cv2.resize(cv2.imread(a.photo, cv2.IMREAD_COLOR), (4000, 3000),
                     interpolation=cv2.INTER_CUBIC)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    clahe = cv2.createCLAHE(2.0, (8, 8))
    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = {"gray-pgm": (Path(tmp) / "gray.pgm", gray),
                 "rgb-ppm": (Path(tmp) / "rgb.ppm", np.ascontiguousarray(bgr)),
                 "gray-png": (Path(tmp) / "gray.png", gray)}
        for path, img in files.values():
            cv2.imwrite(str(path), img)
        for _ in range(a.rounds):
            for name, (path, img) in files.items():
                out = str(Path(tmp) / f"out{path.suffix}")
                calls = []
                # Call by call in turn, so a spell of load falls on all.
                for _ in range(a.repeat):
                    calls.append((
                        *cli_ms(a.exe, [str(path), "--clahe", out, "--mode", "each-channel"]),
                        *cli_ms(a.exe, [str(path), "--equalize", out]),
                        timed(lambda: apply(clahe, img))[0],
                        timed(lambda: cv2.imwrite(out, apply(
                            clahe, cv2.imread(str(path), cv2.IMREAD_UNCHANGED))))[0]))
                now = [statistics.median(column) for column in zip(*calls)]
                # The benchmark reads netpbm: a PNG's pixels are the PGM's.
                now.insert(4, engine_ms(a.bench, path.with_suffix(".pgm") if img.ndim == 2
                                        else path, a.repeat))
                best[name] = [min(x, y) for x, y in zip(best.get(name, now), now)]
    print(f"== the CLI's CLAHE call, 4000x3000, 8x8 tiles, clip 2, each channel, ms "
          f"(best of {a.rounds} rounds' medians of {a.repeat}); OpenCV {cv2.__version__} "
          f"on {cv2.getNumThreads()} threads")
    print(f"{'image':9} {'CLI clahe':>9} {'decode':>7} {'CLI equalize':>12} {'decode':>7} "
          f"{'engine':>7} {'OpenCV apply':>12} {'OpenCV file':>11} {'vs apply':>8} "
          f"{'vs file':>8} {'rest vs equalize':>16}")
    for name, (c, cd, e, ed, engine, alone, whole) in best.items():
        print(f"{name:9} {c:9.1f} {cd:7.1f} {e:12.1f} {ed:7.1f} {engine:7.1f} {alone:12.1f} "
              f"{whole:11.1f} {c / alone:7.2f}x {c / whole:7.2f}x {(c - engine) / e:15.2f}x")


if __name__ == "__main__":
    main()
