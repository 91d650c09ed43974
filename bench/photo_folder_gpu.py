#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A folder of 12 MP JPEG photos on the GPU host: the CLI's GPU path
(--decoder gpu: nvJPEG decoding, the counts and equalize, CLAHE or match on
the device, nvJPEG encoding) against its CPU path (libjpeg, every core), an
OpenCV loop on every core and ImageMagick's mogrify, all writing JPEGs at
quality 90; then each stage of the GPU path alone (--stages: photo-stages)
against the whole run.

COUNT photos of 4000x3000 are made once (in --photos) from testimages/: a
crop of each scaled up (cubic), gray ones made RGB, grain added (a normal
deviate of 6 levels a sample, as a camera's), saved by OpenCV at quality
90 (4:2:0); D of them distinct (default 100), the others copies.  Each run is one command, start to exit, into an empty
folder, timed on the wall clock, and its folder checked to hold every
result.  Prints photos a second and each run's ratio to the CLI's CPU path
(it / ours: higher is better), and the CLIs' --timings (where the time
goes: read, decode, count, apply, encode, write).

  equalize, gpu     GPU_CLI --decoder gpu --equalize OUT/%n.jpg --quality 90
  equalize, cpu     CPU_CLI --backend cpu --equalize OUT/%n.jpg --quality 90
                    (one worker a core, everything on the CPU)
  equalize, opencv  a process a core: imread, equalizeHist of each channel, imwrite
  equalize, mogrify mogrify -equalize -quality 90, a process a core (--mogrify)
  clahe, gpu        GPU_CLI --decoder gpu --clahe OUT/%n.jpg (OpenCV's
                    defaults, 2.0 and 8 x 8 tiles, of the luminance)
  clahe, cpu        CPU_CLI --decoder cpu --backend cpu --clahe OUT/%n.jpg
  clahe, opencv     a process a core: imread, createCLAHE (2.0, 8 x 8) of
                    Lab's L (OpenCV's way to the luminance), imwrite
  clahe, mogrify    none: ImageMagick 6 has no -clahe (said when so)
  match, gpu / cpu  --match OUT/%n.jpg --reference (the first photo, as
                    netpbm: the GPU host's build of the CLI reads no JPEG)
  stages            photo-stages equalize|clahe: read, decode, count+apply,
                    encode and write, each alone; the whole run's rate over
                    the slowest's (the target: 0.8 or more), and the same
                    from the moment the GPU was ready (--timings)

Usage: photo_folder_gpu.py GPU_CLI CPU_CLI [--count N] [--distinct D] [--photos DIR]
                           [--mogrify PATH] [--stages PHOTO_STAGES]
                           [--skip WHO|OP|OP-WHO,...]
  (CPU_CLI: a CLI built with GEGL and libjpeg, e.g. bench/host_bundle.sh's
   wrapper where the host has neither)
"""
import argparse
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT, QUALITY = 4000, 3000, 90


def make_one(args):
    i, folder, sources = args
    path = Path(folder) / f"photo{i:04d}.jpg"
    if path.exists():
        return
    rng = np.random.default_rng(1000 + i)
    a = cv2.imread(sources[i % len(sources)], cv2.IMREAD_COLOR)
    h, w = a.shape[:2]
    ch, cw = int(h * rng.uniform(0.6, 1.0)), int(w * rng.uniform(0.6, 1.0))
    y, x = rng.integers(0, h - ch + 1), rng.integers(0, w - cw + 1)
    big = cv2.resize(a[y:y + ch, x:x + cw], (WIDTH, HEIGHT), interpolation=cv2.INTER_CUBIC)
    # Grain, as a camera's: photo-like files of a few MB, not smooth upscales.
    noise = rng.normal(0, 6, big.shape).astype(np.int16)
    big = np.clip(big.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])


def make_photos(folder, count, cores, distinct):
    """COUNT photos: `distinct` made, the rest copies of them (the codecs'
    work does not depend on a file being seen before)."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = [str(p) for p in sorted((ROOT / "testimages").glob("*.png"))]
    made = min(count, distinct)
    with multiprocessing.Pool(cores) as pool:
        pool.map(make_one, [(i, str(folder), sources) for i in range(made)])
    for i in range(made, count):
        path = folder / f"photo{i:04d}.jpg"
        if not path.exists():
            shutil.copyfile(folder / f"photo{i % made:04d}.jpg", path)
    return sorted(folder.glob("photo*.jpg"))[:count]


def cv_equalize(args):
    src, dst = args
    a = cv2.imread(src, cv2.IMREAD_COLOR)
    cv2.imwrite(dst, cv2.merge([cv2.equalizeHist(c) for c in cv2.split(a)]),
                [cv2.IMWRITE_JPEG_QUALITY, QUALITY])


def cv_clahe(args):
    src, dst = args
    lab = cv2.cvtColor(cv2.imread(src, cv2.IMREAD_COLOR), cv2.COLOR_BGR2LAB)
    lab[..., 0] = cv2.createCLAHE(2.0, (8, 8)).apply(lab[..., 0])
    cv2.imwrite(dst, cv2.cvtColor(lab, cv2.COLOR_LAB2BGR), [cv2.IMWRITE_JPEG_QUALITY, QUALITY])


def run(argv):
    t = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True)
    return time.monotonic() - t, p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpu_cli")
    ap.add_argument("cpu_cli")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--photos", default="/tmp/photos12mp")
    ap.add_argument("--distinct", type=int, default=100)
    ap.add_argument("--mogrify")
    ap.add_argument("--skip", default="")
    ap.add_argument("--stages", help="photo-stages: each stage of the GPU path alone")
    ap.add_argument("--test", help="test_photo_gpu: nvJPEG's decoding of 8 photos against libjpeg's")
    a = ap.parse_args()
    cores = os.cpu_count() or 1
    skip = set(a.skip.split(","))
    t = time.monotonic()
    photos = make_photos(Path(a.photos), a.count, cores, a.distinct)
    size = sum(p.stat().st_size for p in photos) / len(photos)
    print(f"{len(photos)} photos of {WIDTH}x{HEIGHT} ({min(a.count, a.distinct)} distinct), {size / 1e6:.2f} MB each on average, "
          f"made in {time.monotonic() - t:.1f} s; {cores} cores", flush=True)
    names = [str(p) for p in photos]
    rows = []
    work = Path(tempfile.mkdtemp(prefix="photo-bench-"))

    if a.test:
        # nvJPEG's decoded and equalized pixels against libjpeg's (OpenCV's
        # decoding, equalizeHist of each channel), on 8 of the photos.
        dumps = work / "dumps"
        dumps.mkdir()
        p = subprocess.run([a.test, "--dump", str(dumps)] + names[:8], capture_output=True, text=True)
        print(f"test_photo_gpu on 8 photos: exit {p.returncode}: {p.stdout.splitlines()[-1:]}")
        dmax, dmean, emax, emean = [], [], [], []
        for n in names[:8]:
            ref = cv2.imread(n, cv2.IMREAD_COLOR)
            dec = cv2.imread(str(dumps / f"{Path(n).name}.dec.pnm"), cv2.IMREAD_COLOR)
            eq = cv2.imread(str(dumps / f"{Path(n).name}.eq.pnm"), cv2.IMREAD_COLOR)
            if dec is None or eq is None:
                continue
            ref_eq = cv2.merge([cv2.equalizeHist(c) for c in cv2.split(ref)])
            d = np.abs(dec.astype(int) - ref.astype(int))
            e = np.abs(eq.astype(int) - ref_eq.astype(int))
            dmax.append(d.max()); dmean.append(d.mean()); emax.append(e.max()); emean.append(e.mean())
        if dmax:
            print(f"decoders: nvJPEG against libjpeg (OpenCV), {len(dmax)} photos: decoded max "
                  f"{max(dmax)}, mean {min(dmean):.3f}-{max(dmean):.3f}; equalized max {max(emax)}, "
                  f"mean {min(emean):.3f}-{max(emean):.3f}", flush=True)
        shutil.rmtree(dumps, ignore_errors=True)
    results = {}

    def timed(who, op, argv=None, fn=None):
        if {who, op, f"{op}-{who}"} & skip:
            return
        out = work / f"{op}-{who}"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        if fn:
            t0 = time.monotonic()
            fn(out)
            wall, said = time.monotonic() - t0, ""
        else:
            argv = [str(out / "%n.jpg") if x == "OUT" else x for x in argv]
            wall, p = run(argv)
            said = "\n".join(l for l in p.stderr.splitlines() if l.startswith("timings:")
                             or "GPU" in l or "decod" in l)
            if p.returncode:
                said += f"\nexit {p.returncode}: {p.stderr[-500:]}"
        done = len(list(out.glob("*.jpg")))
        ready = re.search(r"gpu ready after ([\d.]+) ms", said)
        rows.append((op, who, wall, done, float(ready.group(1)) / 1e3 if ready else 0.0))
        print(f"{op}, {who}: {wall:.2f} s, {done / wall:.1f} photos/s, {done} files", flush=True)
        if said:
            print("  " + said.replace("\n", "\n  "), flush=True)
        results[(op, who)] = [cv2.imread(str(out / Path(n).name), cv2.IMREAD_COLOR) for n in names[:8]]
        shutil.rmtree(out, ignore_errors=True)

    common = ["--quality", str(QUALITY), "--quiet", "--timings"]
    gpu = [a.gpu_cli, "--decoder", "gpu"]
    cpu = [a.cpu_cli, "--decoder", "cpu", "--backend", "cpu"]
    # The first run also warms the page cache with the photos.
    timed("gpu", "equalize", gpu + ["--equalize", "OUT"] + common + names)
    timed("cpu", "equalize", cpu + ["--equalize", "OUT"] + common + names)
    timed("gpu", "equalize", gpu + ["--equalize", "OUT"] + common + names)

    def pool_loop(fn):
        def loop(out):
            with multiprocessing.Pool(cores) as pool:
                pool.map(fn, [(n, str(out / Path(n).name)) for n in names], chunksize=4)
        return loop
    timed("opencv", "equalize", fn=pool_loop(cv_equalize))
    if a.mogrify:
        def mog(out):
            per = (len(names) + cores - 1) // cores
            procs = [subprocess.Popen([a.mogrify, "-path", str(out), "-equalize", "-quality",
                                       str(QUALITY)] + names[i:i + per],
                                      env=dict(os.environ, OMP_NUM_THREADS="1"))
                     for i in range(0, len(names), per)]
            for p in procs:
                p.wait()
        timed("mogrify", "equalize", fn=mog)
        p = subprocess.run([a.mogrify, "-path", str(work), "-clahe", "8x8+128+2", names[0]],
                           capture_output=True, text=True)
        if p.returncode:
            print(f"clahe, mogrify: none: {p.stderr.strip()[:120]}", flush=True)
    timed("gpu", "clahe", gpu + ["--clahe", "OUT"] + common + names)
    timed("cpu", "clahe", cpu + ["--clahe", "OUT"] + common + names)
    timed("gpu", "clahe", gpu + ["--clahe", "OUT"] + common + names)
    timed("opencv", "clahe", fn=pool_loop(cv_clahe))
    # The reference: the first photo as netpbm, which every build of the CLI reads.
    reference = work / "reference.ppm"
    cv2.imwrite(str(reference), cv2.imread(names[0], cv2.IMREAD_COLOR))
    match = ["--match", "OUT", "--reference", str(reference)]
    timed("gpu", "match", gpu + match + common + names)
    timed("cpu", "match", cpu + match + common + names)
    timed("gpu", "match", gpu + match + common + names)

    for op in ("equalize", "clahe", "match"):
        g, c = results.get((op, "gpu")), results.get((op, "cpu"))
        diffs = [np.abs(x.astype(int) - y.astype(int)) for x, y in zip(g or [], c or [])
                 if x is not None and y is not None and x.shape == y.shape]
        if diffs:
            print(f"results, {op}: --decoder gpu against --decoder cpu, {len(diffs)} photos decoded by "
                  f"OpenCV: max {max(d.max() for d in diffs)}, mean "
                  f"{min(d.mean() for d in diffs):.3f}-{max(d.mean() for d in diffs):.3f}")
    print("\n| operation | who | photos/s | it / ours against the CLI's CPU path |")
    print("|---|---|---|---|")
    best = {}
    starts = {}
    for op, who, wall, done, ready in rows:
        if wall / max(done, 1) < best.get((op, who), 1e9):
            best[(op, who)] = wall / max(done, 1)
            starts[(op, who)] = (ready, wall, done)
    for (op, who), per in best.items():
        cpu = best.get((op, "cpu"))
        ratio = f"{cpu / per:.2f}x" if cpu else "-"
        print(f"| {op} | {who} | {1 / per:.1f} | {ratio} |")
    if a.stages:
        # Each stage alone against the whole run (the GPU path's best).
        for op in ("equalize", "clahe"):
            whole = best.get((op, "gpu"))
            out = work / f"stages-{op}"
            out.mkdir()
            p = subprocess.run([a.stages, op, str(out)] + names, capture_output=True, text=True)
            print(p.stdout + p.stderr, end="", flush=True)
            m = re.search(r"^slowest alone: (\S+), ([\d.]+) photos/s", p.stdout, re.M)
            if m and whole:
                ready, wall, done = starts[(op, "gpu")]
                after = done / (wall - ready) / float(m.group(2))
                print(f"overlap, {op}: the whole run {1 / whole:.1f} photos/s, the slowest stage "
                      f"alone ({m.group(1)}) {m.group(2)}: {1 / whole / float(m.group(2)):.2f} of it; "
                      f"after the GPU's start ({ready:.2f} s): {after:.2f} of it")
            shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
