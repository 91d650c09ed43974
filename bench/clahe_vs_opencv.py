"""CLAHE beside OpenCV's, in one run: 12 MP gray and RGB images (the test
photo resized to 4000x3000), OpenCV's createCLAHE(2.0, (8, 8)).apply on the
CPU (all its threads; RGB as split, apply per channel, merge) and, when this
OpenCV has CUDA and a device, cv2.cuda's CLAHE (uploads and downloads
included, and without them); then the engine's CPU and GPU CLAHE on the same
files (gpu-histogram-bench --clahe), medians, printed side by side.

    python3 bench/clahe_vs_opencv.py BENCH_EXE PHOTO [repeat]
"""
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np


def median_ms(work, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        work()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2] * 1e3


def opencv_cpu(img, repeat):
    clahe = cv2.createCLAHE(2.0, (8, 8))
    if img.ndim == 2:
        return median_ms(lambda: clahe.apply(img), repeat)
    return median_ms(lambda: cv2.merge([clahe.apply(c) for c in cv2.split(img)]), repeat)


def opencv_cuda(img, repeat):
    """(with transfers, kernels only) in ms, or None without cv2.cuda."""
    try:
        if not hasattr(cv2, "cuda") or cv2.cuda.getCudaEnabledDeviceCount() < 1:
            return None
        clahe = cv2.cuda.createCLAHE(2.0, (8, 8))
    except cv2.error:
        return None
    planes = [img] if img.ndim == 2 else list(cv2.split(img))
    gpu = [cv2.cuda_GpuMat(p) for p in planes]
    out = [cv2.cuda_GpuMat(p.shape[0], p.shape[1], cv2.CV_8UC1) for p in planes]
    stream = cv2.cuda.Stream()

    def kernels():
        for g, o in zip(gpu, out):
            clahe.apply(g, stream, o)
        stream.waitForCompletion()

    def whole():
        for p, o in zip(planes, out):
            g = cv2.cuda_GpuMat(p)
            clahe.apply(g, stream, o)
            o.download(stream)
        stream.waitForCompletion()

    kernels()
    return median_ms(whole, repeat), median_ms(kernels, repeat)


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit("usage: clahe_vs_opencv.py BENCH_EXE PHOTO [repeat]")
    exe, photo = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) == 4 else 5
    rgb = cv2.resize(cv2.imread(photo, cv2.IMREAD_COLOR)[..., ::-1], (4000, 3000),
                     interpolation=cv2.INTER_CUBIC)
    images = {"gray": cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), "rgb": np.ascontiguousarray(rgb)}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, a in images.items():
            path = Path(tmp) / (f"{name}.pgm" if a.ndim == 2 else f"{name}.ppm")
            h, w = a.shape[:2]
            path.write_bytes(f"P{5 if a.ndim == 2 else 6}\n{w} {h}\n255\n".encode() + a.tobytes())
            files[str(path)] = name
        args = [exe, "--repeat", str(repeat)]
        for f in files:
            args += ["--clahe", f]
        p = subprocess.run(args, capture_output=True, text=True)
    print(p.stdout, end="")
    if p.returncode != 0:
        print(p.stderr, end="")
        raise SystemExit(p.returncode)
    rows = {}
    for line in p.stdout.splitlines():
        if line.startswith("clahe-row,"):
            _, f, w, h, d, cpu, gpu, _same = line.split(",")
            rows[files[f]] = (float(cpu), float(gpu))
    print(f"\n== CLAHE 4000x3000, 8x8 tiles, clip 2, ms (median of {repeat}); "
          f"OpenCV {cv2.__version__} on {cv2.getNumThreads()} threads")
    print(f"{'image':6} {'OpenCV CPU':>11} {'OpenCV CUDA':>20} {'engine CPU':>11} "
          f"{'engine GPU':>11} {'GPU vs OpenCV CPU':>18}")
    for name, a in images.items():
        cv_cpu = opencv_cpu(a, repeat)
        cuda = opencv_cuda(a, repeat)
        cuda_s = "n/a" if cuda is None else f"{cuda[0]:.1f} ({cuda[1]:.1f} kernels)"
        cpu, gpu = rows[name]
        gpu_s = "n/a" if gpu < 0 else f"{gpu:.1f}"
        ratio = "n/a" if gpu < 0 else f"{cv_cpu / gpu:.1f}x"
        print(f"{name:6} {cv_cpu:11.1f} {cuda_s:>20} {cpu:11.1f} {gpu_s:>11} {ratio:>18}")


if __name__ == "__main__":
    main()
