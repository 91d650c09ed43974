# SPDX-License-Identifier: GPL-3.0-or-later
"""The benchmark's CPU part beside OpenCV's calcHist, in one run.

Times cv2.calcHist (one call per channel, four channels, one thread) on
RGBA8 images of the benchmark's kinds and size, and OpenCV computing the
engine's six histograms (the four, plus value = max(R, G, B) and luminance
through cv2.transform, then calcHist of each), then runs the benchmark's
CPU part on the same machine, and prints them with the engine's ratios.

    python3 bench/cpu_vs_opencv.py BENCH_EXE [megapixels]
"""
import re
import subprocess
import sys
import time

import cv2
import numpy as np


def images(width, height):
    rng = np.random.default_rng(1)
    n = width * height
    uniform = rng.integers(0, 256, (n, 4), dtype=np.uint8)
    equal = np.full((n, 4), 97, np.uint8)
    ninety = np.where(rng.random((n, 1)) < 0.9, np.uint8(200), uniform)
    x = np.arange(n) % width
    y = np.arange(n) // width
    gradient = np.stack([x * 256 // width, y * 256 // height,
                         (x + y) * 256 // (width + height), np.full(n, 255)], 1).astype(np.uint8)
    for name, img in [("uniform", uniform), ("all-equal", equal), ("90%-one", ninety),
                      ("gradient", gradient)]:
        img[:, 3] = 255
        yield name, img.reshape(height, width, 4)


LUMINANCE = np.array([[0.22248840, 0.71690369, 0.06060791, 0]], np.float32)


def four(img):
    for c in range(4):
        cv2.calcHist([img], [c], None, [256], [0, 256])


def six(img):
    """GIMP's six histograms the OpenCV way (levels, not GIMP's exact
    rounding: the work, for timing)."""
    four(img)
    value = cv2.max(cv2.max(img[:, :, 0], img[:, :, 1]), img[:, :, 2])
    cv2.calcHist([value], [0], None, [256], [0, 256])
    luminance = cv2.transform(img, LUMINANCE)
    cv2.calcHist([luminance], [0], None, [256], [0, 256])


def gbps(work, img, repeat=9):
    """The best of `repeat` calls, as the benchmark takes the engine's."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        work(img)
        times.append(time.perf_counter() - t0)
    return img.nbytes / min(times) / 1e9


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    mp = float(sys.argv[2]) if len(sys.argv) > 2 else 64
    width = 8192
    height = int(mp * 1e6 / width + 0.5)
    cv2.setNumThreads(1)
    ocv = {name: (gbps(four, img), gbps(six, img)) for name, img in images(width, height)}
    out = subprocess.run([sys.argv[1], "--cpu-only", "--megapixels", str(mp), "--repeat", "9"],
                         capture_output=True, text=True, check=True).stdout
    print(out, end="")
    print(f"\n== Beside OpenCV {cv2.__version__} (1 thread), GB/s; calcHist x4: the four stored "
          "channels; OpenCV x6: the engine's six histograms")
    print(f"{'input':10} {'calcHist x4':>11} {'OpenCV x6':>10} {'engine 1 thr':>13} {'/x4':>5} "
          f"{'/x6':>5} {'engine all':>11} {'/x4':>5} {'/x6':>5}")
    for line in out.splitlines():
        m = re.match(r"(\S+)\s+([\d.]+)\s+([\d.]+)$", line)
        if m and m.group(1) in ocv:
            one, many = float(m.group(2)), float(m.group(3))
            x4, x6 = ocv[m.group(1)]
            print(f"{m.group(1):10} {x4:11.2f} {x6:10.2f} {one:13.2f} {one / x4:5.2f} "
                  f"{one / x6:5.2f} {many:11.2f} {many / x4:5.2f} {many / x6:5.2f}")

if __name__ == "__main__":
    main()
