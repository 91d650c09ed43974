# SPDX-License-Identifier: GPL-3.0-or-later
"""CLAHE beside OpenCV's, in one run: gray and RGB images (the test photo
resized to each of --sizes, 4000x3000 by default), OpenCV's
createCLAHE(2.0, (8, 8)).apply on the CPU (RGB as split, apply per
channel, merge) and, when this OpenCV has CUDA
and a device, cv2.cuda's CLAHE (uploads and downloads included, and without
them); then the engine's CPU and GPU CLAHE on the same files
(gpu-histogram-bench --clahe), printed side by side; the engine's GPU
whole call from ordinary (pageable) memory and from page-locked memory
(gh_engine_alloc_host; its allocation timed apart), on the same bytes.

    python3 bench/clahe_vs_opencv.py BENCH_EXE PHOTO [repeat]
                                     [--threads T[,T...]] [--rounds N]
                                     [--sizes WxH[,WxH...]]

Each CPU column runs on T threads (OpenCV's setNumThreads, the engine's
--threads; 0, the default: all of them).  A round times the engine (the
median of `repeat` calls) and then OpenCV (the same) for each T in turn;
each figure is the best of the rounds' medians, so load from other work on
a shared machine weighs on both alike.
"""
import argparse
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


def engine_cpu_gpu(exe, files, repeat, threads):
    """{image name: (CPU ms, GPU ms or -1, CPU whole ms, GPU whole ms or -1,
    GPU whole from page-locked memory ms or -1, its allocation ms or -1)}
    from one run of the benchmark (in strips, then gh_clahe_image)."""
    args = [exe, "--repeat", str(repeat), "--threads", str(threads)]
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
            _, f, w, h, d, cpu, gpu, cpu_whole, gpu_whole, _same, locked, alloc = \
                line.split(",")
            rows[files[f]] = (float(cpu), float(gpu), float(cpu_whole), float(gpu_whole),
                              float(locked), float(alloc))
    return rows


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("exe")
    ap.add_argument("photo")
    ap.add_argument("repeat", nargs="?", type=int, default=5)
    ap.add_argument("--threads", default="0")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--sizes", default="4000x3000")
    a = ap.parse_args()
    thread_counts = [int(t) for t in a.threads.split(",")]
    default_threads = cv2.getNumThreads()
    photo = cv2.imread(a.photo, cv2.IMREAD_COLOR)[..., ::-1]
    images = {}
    for size in a.sizes.split(","):
        w, h = (int(v) for v in size.split("x"))
        rgb = cv2.resize(photo, (w, h), interpolation=cv2.INTER_CUBIC)
        suffix = "" if size == "4000x3000" else f"-{size}"
        images["gray" + suffix] = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        images["rgb" + suffix] = np.ascontiguousarray(rgb)
    # (threads, image) -> [OpenCV CPU, engine CPU, GPU, CPU whole, GPU whole,
    # GPU whole page-locked, its allocation]
    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, img in images.items():
            path = Path(tmp) / (f"{name}.pgm" if img.ndim == 2 else f"{name}.ppm")
            h, w = img.shape[:2]
            path.write_bytes(f"P{5 if img.ndim == 2 else 6}\n{w} {h}\n255\n".encode()
                             + img.tobytes())
            files[str(path)] = name
        for _ in range(a.rounds):
            for t in thread_counts:
                rows = engine_cpu_gpu(a.exe, files, a.repeat, t)
                cv2.setNumThreads(t if t > 0 else default_threads)
                for name, img in images.items():
                    now = [opencv_cpu(img, a.repeat), *rows[name]]
                    old = best.get((t, name), now)
                    best[(t, name)] = [min(x, y) for x, y in zip(old, now)]
    cv2.setNumThreads(default_threads)
    print(f"\n== CLAHE {a.sizes}, 8x8 tiles, clip 2, ms (best of {a.rounds} rounds' medians "
          f"of {a.repeat}); OpenCV {cv2.__version__}")
    print("(engine: in strips of 256 rows, and whole: gh_clahe_image on the image in memory)")
    print(f"{'image':14} {'threads':>7} {'OpenCV CPU':>11} {'OpenCV CUDA':>20} {'engine CPU':>11} "
          f"{'CPU/OpenCV':>10} {'engine GPU':>11} {'GPU vs OpenCV CPU':>18} "
          f"{'CPU whole':>10} {'GPU whole':>10} {'whole GPU vs OpenCV CPU':>24} "
          f"{'GPU locked':>10} {'locked vs OpenCV CPU':>21} {'lock alloc':>10}")
    for t in thread_counts:
        for name, img in images.items():
            cv_cpu, cpu, gpu, cpu_whole, gpu_whole, locked, alloc = best[(t, name)]
            cuda = opencv_cuda(img, a.repeat)
            cuda_s = "n/a" if cuda is None else f"{cuda[0]:.1f} ({cuda[1]:.1f} kernels)"
            gpu_s = "n/a" if gpu < 0 else f"{gpu:.1f}"
            ratio = "n/a" if gpu < 0 else f"{cv_cpu / gpu:.1f}x"
            whole_s = "n/a" if gpu_whole < 0 else f"{gpu_whole:.2f}"
            whole_ratio = "n/a" if gpu_whole < 0 else f"{cv_cpu / gpu_whole:.1f}x"
            locked_s = "n/a" if locked < 0 else f"{locked:.2f}"
            locked_ratio = "n/a" if locked < 0 else f"{cv_cpu / locked:.1f}x"
            alloc_s = "n/a" if alloc < 0 else f"{alloc:.2f}"
            threads = t if t > 0 else default_threads
            print(f"{name:14} {threads:7} {cv_cpu:11.1f} {cuda_s:>20} {cpu:11.1f} "
                  f"{cpu / cv_cpu:9.2f}x {gpu_s:>11} {ratio:>18} "
                  f"{cpu_whole:10.2f} {whole_s:>10} {whole_ratio:>24} "
                  f"{locked_s:>10} {locked_ratio:>21} {alloc_s:>10}")


if __name__ == "__main__":
    main()
