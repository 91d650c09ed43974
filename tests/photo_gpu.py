#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The GPU photo path (--decoder gpu, gpu/photo/): test_photo_gpu (the
device's counts and equalize against the engine's on the CPU, on the same
decoded pixels, byte for byte), then nvJPEG's decoding against libjpeg's
(OpenCV's) on JPEGs made from testimages/ (4:2:0, 4:4:4, progressive,
gray): the decoded and the equalized pixels' max and mean absolute
difference, printed and held to bounds; then the CLI on a folder of them:
every result a JPEG of its input's size close to OpenCV's equalizeHist of
libjpeg's decoding, the statistics' pixel counts, the input's EXIF carried,
the files in the order given, and files nvJPEG refuses (a 12-bit frame, not
a JPEG) said and left to the CPU path; --posterize, --clahe (the
luminance, and each channel close to OpenCV's CLAHE of libjpeg's decoding)
and --match through the GPU path.

GH_PHOTO_WRAP="compute-sanitizer --tool memcheck": test_photo_gpu alone,
under that command.

Usage: photo_gpu.py CLI TEST_PHOTO_GPU   (TEST_PHOTO_GPU `-`: a build
without nvJPEG, skipped); exit 77 where it cannot run (no GPU, no nvJPEG,
no OpenCV).
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = 77


def main():
    cli, test = sys.argv[1], sys.argv[2]
    if test == "-":
        print("SKIP: built without nvJPEG")
        return SKIP
    try:
        import cv2
        import numpy as np
    except ImportError:
        print("SKIP: no OpenCV")
        return SKIP
    tmp = Path(tempfile.mkdtemp(prefix="photo-gpu-"))
    src = {n: cv2.imread(str(ROOT / "testimages" / f"{n}.png"), cv2.IMREAD_COLOR)
           for n in ("astronaut", "chelsea", "coffee", "camera", "coins")}
    sampling = getattr(cv2, "IMWRITE_JPEG_SAMPLING_FACTOR", None)
    made = {
        "a420": (src["astronaut"], [cv2.IMWRITE_JPEG_QUALITY, 90]),
        "c444": (src["chelsea"], [cv2.IMWRITE_JPEG_QUALITY, 95]
                 + ([sampling, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444] if sampling else [])),
        "prog": (src["coffee"], [cv2.IMWRITE_JPEG_QUALITY, 85, cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
        "gray": (cv2.cvtColor(src["camera"], cv2.COLOR_BGR2GRAY), [cv2.IMWRITE_JPEG_QUALITY, 90]),
        "coins": (cv2.cvtColor(src["coins"], cv2.COLOR_BGR2GRAY), [cv2.IMWRITE_JPEG_QUALITY, 75]),
    }
    good = []
    for name, (img, params) in made.items():
        path = tmp / f"{name}.jpg"
        ok, data = cv2.imencode(".jpg", img, params)
        data = data.tobytes()
        if name == "a420":
            # An EXIF block after SOI, which the result must carry.
            exif = b"Exif\0\0" + b"II*\0\x08\0\0\0\0\0" + b"\0\0\0\0"
            data = data[:2] + b"\xff\xe1" + (len(exif) + 2).to_bytes(2, "big") + exif + data[2:]
        path.write_bytes(data)
        good.append(path)
    # Refused: a frame header of 12 bits, and a file that is not a JPEG.
    twelve = bytearray((tmp / "a420.jpg").read_bytes())
    sof = twelve.find(b"\xff\xc0")
    twelve[sof + 4] = 12
    (tmp / "twelve.jpg").write_bytes(bytes(twelve))
    (tmp / "notjpeg.jpg").write_bytes(b"P5\n1 1\n255\n\0")
    refused = [tmp / "twelve.jpg", tmp / "notjpeg.jpg"]

    failures = []
    dumps = tmp / "dumps"
    dumps.mkdir()
    wrap = shlex.split(os.environ.get("GH_PHOTO_WRAP", ""))
    p = subprocess.run(wrap + [test, "--dump", str(dumps)] + [str(f) for f in good + refused],
                       capture_output=True, text=True)
    print(p.stdout, p.stderr, end="")
    if p.returncode == SKIP:
        print("SKIP: no GPU")
        return SKIP
    if p.returncode:
        failures.append(f"test_photo_gpu: exit {p.returncode}")
    for f in refused:
        if not re.search(re.escape(str(f)) + r": refused: \S", p.stdout):
            failures.append(f"{f.name}: not refused with a reason")

    if wrap:
        # Under compute-sanitizer (GH_PHOTO_WRAP): the device's part alone.
        print("passed" if not failures else "FAIL: " + "; ".join(failures))
        return 1 if failures else 0

    # nvJPEG's decoding and equalize against libjpeg's (OpenCV's).
    print("file, decoded max |diff|, mean |diff|, equalized max |diff|, mean |diff|")
    for f in good:
        ref = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
        dec = cv2.imread(str(dumps / f"{f.name}.dec.pnm"), cv2.IMREAD_UNCHANGED)
        eq = cv2.imread(str(dumps / f"{f.name}.eq.pnm"), cv2.IMREAD_UNCHANGED)
        if dec is None or eq is None or dec.shape != ref.shape:
            failures.append(f"{f.name}: no dump of its size")
            continue
        ref_eq = (cv2.equalizeHist(ref) if ref.ndim == 2
                  else cv2.merge([cv2.equalizeHist(c) for c in cv2.split(ref)]))
        d = np.abs(dec.astype(int) - ref.astype(int))
        e = np.abs(eq.astype(int) - ref_eq.astype(int))
        print(f"{f.name}, {d.max()}, {d.mean():.3f}, {e.max()}, {e.mean():.3f}")
        if d.mean() > 1.5:
            failures.append(f"{f.name}: decoded {d.mean():.3f} apart on average from libjpeg's")
        if e.mean() > 4.0:
            failures.append(f"{f.name}: equalized {e.mean():.3f} apart on average")

    # The CLI on the folder, the refused files among the good ones.
    out = tmp / "out"
    out.mkdir()
    inputs = [good[0], refused[0]] + good[1:] + [refused[1]]
    p = subprocess.run([cli, "--decoder", "gpu", "--equalize", str(out / "%n.jpg"),
                        "--quality", "90", "--quiet", "--timings"] + [str(f) for f in inputs],
                       capture_output=True, text=True)
    print(p.stderr, end="")
    if p.returncode != 1:
        failures.append(f"the CLI: exit {p.returncode}, not 1 (files refused)")
    # A file that cannot be opened prints no "file:" line (as the CPU
    # path's); the others print theirs in the order given.
    names = re.findall(r"^file: (.*)$", p.stdout, re.M)
    if names != [str(f) for f in inputs if f in good]:
        failures.append(f"the CLI printed {names}")
    if p.stdout.count("backend: cuda:") != len(good):
        failures.append(f"{p.stdout.count('backend: cuda:')} files on the GPU, not {len(good)}")
    for f in refused:
        if f"{f}: decoded on the CPU: " not in p.stderr:
            failures.append(f"{f.name}: the CLI did not say why it left the GPU path")
    blocks = {b.split("\n", 1)[0]: b for b in p.stdout.split("file: ")[1:]}
    for f in good:
        block = blocks.get(str(f), "")
        ref = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
        res = cv2.imread(str(out / f"{f.stem}.jpg"), cv2.IMREAD_UNCHANGED)
        if res is None or res.shape != ref.shape:
            failures.append(f"{f.name}: no result of its size")
            continue
        ref_eq = (cv2.equalizeHist(ref) if ref.ndim == 2
                  else cv2.merge([cv2.equalizeHist(c) for c in cv2.split(ref)]))
        e = np.abs(res.astype(int) - ref_eq.astype(int)).mean()
        if e > 6.0:
            failures.append(f"{f.name}: its result is {e:.2f} apart on average")
        px = ref.shape[0] * ref.shape[1]
        rows = re.findall(r"^(value|red|green|blue|luminance),([0-9.]+),", block, re.M)
        if not rows or any(float(n) != px for _, n in rows):
            failures.append(f"{f.name}: statistics rows {rows}")
    if b"Exif\0\0" not in (out / "a420.jpg").read_bytes():
        failures.append("a420.jpg: its EXIF was not carried")
    for f in refused:
        if (out / f"{f.stem}.jpg").exists():
            failures.append(f"{f.name}: a result was written")
    # Posterize on the GPU path: the thresholds printed, a result each.
    post = tmp / "post"
    post.mkdir()
    p = subprocess.run([cli, "--decoder", "gpu", "--posterize", str(post / "%n.jpg"),
                        "--classes", "3", "--quiet"] + [str(f) for f in good],
                       capture_output=True, text=True)
    if p.returncode or p.stdout.count("backend: cuda:") != len(good):
        failures.append(f"--posterize on the GPU path: exit {p.returncode}: {p.stderr[-300:]}")
    if len(re.findall(r"^thresholds: \d+,\d+$", p.stdout, re.M)) != len(good):
        failures.append("--posterize: not a thresholds line a file")
    if len(list(post.glob("*.jpg"))) != len(good):
        failures.append("--posterize: not a result a file")
    # CLAHE (OpenCV's defaults: the luminance; then each channel) and match
    # on the GPU path: a result a file, every file on the device.
    ops = {"clahe": ["--clahe"], "clahe-channels": ["--clahe", "--mode", "each-channel"],
           "match": ["--match", "--reference", str(tmp / "reference.ppm")]}
    # A netpbm reference: every build of the CLI reads it.
    cv2.imwrite(str(tmp / "reference.ppm"), src["coffee"])
    for op, args in ops.items():
        res_dir = tmp / op
        res_dir.mkdir()
        argv = args[:1] + [str(res_dir / "%n.jpg")] + args[1:]
        p = subprocess.run([cli, "--decoder", "gpu", "--quiet"] + argv + [str(f) for f in good],
                           capture_output=True, text=True)
        if p.returncode or p.stdout.count("backend: cuda:") != len(good):
            failures.append(f"--{op} on the GPU path: exit {p.returncode}, "
                            f"{p.stdout.count('backend: cuda:')} on the GPU: {p.stderr[-300:]}")
        for f in good:
            ref = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
            res = cv2.imread(str(res_dir / f"{f.stem}.jpg"), cv2.IMREAD_UNCHANGED)
            if res is None or res.shape != ref.shape:
                failures.append(f"--{op}: {f.name}: no result of its size")
                continue
            if op == "clahe-channels":
                cl = cv2.createCLAHE(2.0, (8, 8))
                want = cl.apply(ref) if ref.ndim == 2 else cv2.merge([cl.apply(c) for c in cv2.split(ref)])
                e = np.abs(res.astype(int) - want.astype(int)).mean()
                print(f"--clahe --mode channels, {f.name}: {e:.3f} from OpenCV's of libjpeg's decoding")
                if e > 6.0:
                    failures.append(f"--{op}: {f.name}: {e:.2f} apart on average from OpenCV's")
    for msg in failures:
        print("FAIL:", msg)
    print("passed" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
