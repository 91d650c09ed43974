#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The CLI keeps a photo's metadata, and --auto-orient turns it upright.

Usage: cli_metadata.py PATH-TO-gpu-histogram-cli
The inputs are made here and tagged by exiftool, which reads the results back.
(a) every input format (JPEG, PNG, TIFF, WebP) to every output format: the
    camera's EXIF (make, model, date, GPS, orientation 6), XMP (title, creator)
    and IPTC (keywords, city; not in WebP, which has no place for it) read back
    the same from the result; with an ICC profile too (JPEG, PNG, TIFF: the
    formats whose profile the CLI keeps), the profile kept beside the tags;
(b) orientations 1..8 of a JPEG (libjpeg's path), a PNG and a TIFF: without
    --auto-orient the result is stored as the input is (its size) and keeps the
    tag; with it, the pixels are those of the result without it turned upright
    (numpy, after the EXIF specification), the tag is 1, and the EXIF pixel
    dimensions are swapped where the image turned by a quarter; through
    equalize, binarize and CLAHE (which holds the image whole), into PNG and
    into JPEG (libjpeg's writer, within JPEG's error);
(c) a damaged EXIF block (a JPEG's, a PNG's): a warning on stderr naming the
    metadata, the image still written (the same pixels as without the block),
    exit 0; a netpbm result holds no metadata and is written as before.
Exit status: 0 all passed, 1 something failed, 77 (meson: skipped) without
exiftool or cv2/numpy, or in a build that keeps no metadata (no GEGL or no
gexiv2: its --help says so).
"""
import json
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

try:
    import cv2
    import numpy as np
except ImportError as e:
    print(f"cannot import cv2/numpy ({e}): skipping")
    sys.exit(77)

from checks import Checks  # noqa: E402
from cli_formats import ICC, run  # noqa: E402

FORMATS = ("jpg", "png", "tif", "webp")
# What a phone writes, in exiftool's names and its values read back (-n).
TAGS = {
    "EXIF:Make": "Phone Maker", "EXIF:Model": "Model 7",
    "EXIF:DateTimeOriginal": "2024:05:06 07:08:09",
    "EXIF:GPSLatitude": 48.8583, "EXIF:GPSLatitudeRef": "N",
    "EXIF:GPSLongitude": 2.2945, "EXIF:GPSLongitudeRef": "E",
    "XMP:Title": "Tower at dusk", "XMP:Creator": "A. Photographer",
    "IPTC:Keywords": "tower", "IPTC:City": "Paris",
}


def exiftool(*args):
    p = subprocess.run(["exiftool", *map(str, args)], capture_output=True,
                       text=True, timeout=300)
    if p.returncode:
        raise RuntimeError(f"exiftool {args}: {p.stderr.strip()}")
    return p.stdout


def tag(path, tags, orientation=None, icc=False):
    """Writes `tags` (exiftool's names) into `path` in place."""
    args = [f"-{k}={v}" for k, v in tags.items()
            if not (k.startswith("IPTC:") and path.suffix == ".webp")]
    if orientation is not None:
        args.append(f"-EXIF:Orientation#={orientation}")
    if icc:
        args.append(f"-ICC_Profile<={ICC}")
    exiftool("-q", "-q", "-overwrite_original", *args, path)


def read_tags(paths):
    """{path name: {tag: value}} of every file, read by exiftool (-n)."""
    out = json.loads(exiftool("-j", "-n", "-G0", *paths))
    return {Path(d["SourceFile"]).name: d for d in out}


def ok(cli, args):
    rc, out, err = run(cli, args)
    if rc:
        raise RuntimeError(f"exit {rc}: {err.strip()}")
    return err


def write(path, pixels):
    params = [cv2.IMWRITE_WEBP_QUALITY, 101] if path.suffix == ".webp" else []
    if not cv2.imwrite(str(path), pixels, params):
        raise RuntimeError(f"cannot write {path}")


def read(path):
    a = cv2.imread(str(path), cv2.IMREAD_UNCHANGED | cv2.IMREAD_IGNORE_ORIENTATION)
    if a is None:
        raise ValueError(f"{path}: OpenCV cannot read it")
    return a


def upright(a, orientation):
    """`a` (rows, columns[, channels]) as displayed by EXIF `orientation`."""
    t = a.swapaxes(0, 1)
    return {1: a, 2: a[:, ::-1], 3: a[::-1, ::-1], 4: a[::-1],
            5: t, 6: t[:, ::-1], 7: t[::-1, ::-1], 8: t[::-1]}[orientation]


def photo(rng, h=30, w=44):
    """A picture that shows which way is up: no two orientations alike."""
    a = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    a[:6, :10] = (255, 255, 255)
    return a


def compare_tags(got, want, keys):
    """None, or the tags that differ (or that the input lacks)."""
    lacking = [k for k in keys if want.get(k) is None]
    if lacking:
        return f"the input lacks {lacking}"
    bad = {k: got.get(k) for k in keys if got.get(k) != want.get(k)}
    return None if not bad else f"{bad} (want {({k: want.get(k) for k in bad})})"


def check_formats(checks, cli, tmp, rng):
    src = tmp / "formats"
    src.mkdir()
    inputs = []
    for ext in FORMATS:
        for icc in (False, True):
            if icc and ext == "webp":
                continue
            p = src / f"{'icc' if icc else 'cam'}_{ext}.{ext}"
            write(p, photo(rng))
            tag(p, TAGS, 6, icc)
            inputs.append(p)
    wanted = read_tags(inputs)
    for ext in FORMATS:
        out = tmp / f"to_{ext}"
        out.mkdir()
        ok(cli, inputs + ["--equalize", out / f"%n.{ext}"])
        got = read_tags(sorted(out.iterdir()))
        for p in inputs:
            name = f"{p.stem}.{ext}"
            keys = [k for k in TAGS if not k.startswith("IPTC:")
                    or "webp" not in (p.suffix[1:], ext)] + ["EXIF:Orientation"]
            if p.stem.startswith("icc") and ext != "webp":
                keys.append("ICC_Profile:ProfileDescription")
            problem = ("not written" if name not in got
                       else compare_tags(got[name], wanted[p.name], keys))
            checks.report(f"{p.name} -> .{ext}: {len(keys)} tags kept "
                          f"({', '.join(k.split(':')[1] for k in keys)})", problem)


def check_orientations(checks, cli, tmp, rng):
    src = tmp / "orient"
    src.mkdir()
    base = photo(rng)
    dims = {"EXIF:ExifImageWidth": base.shape[1], "EXIF:ExifImageHeight": base.shape[0]}
    for ext in ("jpg", "png", "tif"):
        for n in range(1, 9):
            p = src / f"o{n}.{ext}"
            write(p, base)
            tag(p, {**TAGS, **dims}, n)
            ops = [("equalize", "png")]
            if ext == "jpg":
                ops += [("equalize", "jpg"), ("binarize", "png")]
            if ext == "png" and n in (3, 6, 7):
                ops += [("clahe", "png")]
            for op, oext in ops:
                stored, turned = tmp / f"s_{n}_{op}.{oext}", tmp / f"u_{n}_{op}.{oext}"
                ok(cli, [p, f"--{op}", stored])
                ok(cli, [p, "--auto-orient", f"--{op}", turned])
                s, u = read(stored), read(turned)
                t = read_tags([stored, turned])
                what = f"{ext} orientation {n}, {op} to .{oext}"
                checks.report(f"{what}: kept as stored, tag {n}",
                              None if s.shape[:2] == base.shape[:2]
                              and t[stored.name].get("EXIF:Orientation") == n
                              else f"{s.shape}, tag {t[stored.name].get('EXIF:Orientation')}")
                want = upright(s, n)
                if u.shape != want.shape:
                    problem = f"shape {u.shape}, want {want.shape}"
                elif oext != "jpg":
                    differ = int(np.count_nonzero(u != want))
                    problem = f"{differ} samples differ" if differ else None
                else:
                    # Within JPEG's error: that of the stored result against
                    # the lossless one (the PNG's), and a level.
                    lossless = read(tmp / f"s_{n}_{op}.png").astype(int)
                    bound = np.abs(s.astype(int) - lossless).mean() + 1
                    err = np.abs(u.astype(int) - upright(lossless, n)).mean()
                    problem = f"mean error {err:.2f} > {bound:.2f}" if err > bound else None
                checks.report(f"{what}: --auto-orient turns the pixels upright", problem)
                w, h = (base.shape[0], base.shape[1]) if n >= 5 else base.shape[1::-1]
                got = t[turned.name]
                problem = compare_tags(got, {**TAGS, "EXIF:Orientation": 1,
                                             "EXIF:ExifImageWidth": w,
                                             "EXIF:ExifImageHeight": h},
                                       ["EXIF:Orientation", "EXIF:ExifImageWidth",
                                        "EXIF:ExifImageHeight", "EXIF:Make",
                                        "XMP:Title", "IPTC:Keywords"])
                checks.report(f"{what}: --auto-orient: tag 1, dimensions {w}x{h}, "
                              f"the rest kept", problem)


def png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data)))


def check_damaged(checks, cli, tmp, rng):
    src = tmp / "damaged"
    src.mkdir()
    pixels = photo(rng)
    clean_jpg, clean_png = src / "clean.jpg", src / "clean.png"
    write(clean_jpg, pixels)
    write(clean_png, pixels)
    # An EXIF block whose first directory claims 65535 entries, and one
    # that is not TIFF at all.
    blocks = {"entries": b"Exif\0\0II*\0\x08\0\0\0\xff\xff" + b"\x01" * 40,
              "garbage": b"Exif\0\0MM\0*\x7f\xff\xff\xf0" + b"\0" * 20}
    for what, block in blocks.items():
        jpg = clean_jpg.read_bytes()
        bad_jpg = src / f"{what}.jpg"
        bad_jpg.write_bytes(jpg[:2] + b"\xff\xe1" + struct.pack(">H", len(block) + 2)
                            + block + jpg[2:])
        png = clean_png.read_bytes()
        bad_png = src / f"{what}.png"
        end = 8 + 25  # the signature and IHDR
        bad_png.write_bytes(png[:end] + png_chunk(b"eXIf", block[6:]) + png[end:])
        for bad, clean in ((bad_jpg, clean_jpg), (bad_png, clean_png)):
            for oext in ("png", "jpg"):
                out, ref = tmp / f"bad_{bad.name}.{oext}", tmp / f"ref_{bad.name}.{oext}"
                rc, _, err = run(cli, [bad, "--equalize", out])
                ok(cli, [clean, "--equalize", ref])
                if rc or not out.exists():
                    problem = f"exit {rc}, {'written' if out.exists() else 'not written'}: {err.strip()}"
                elif "metadata" not in err:
                    problem = f"no warning on stderr ({err.strip()!r})"
                else:
                    differ = np.count_nonzero(read(out) != read(ref))
                    problem = f"{differ} samples differ from the clean file's" if differ else None
                checks.report(f"damaged EXIF ({what}) in {bad.name} -> .{oext}: warned "
                              f"({err.strip().splitlines()[-1] if err.strip() else ''}), "
                              "written, exit 0", problem)
    # netpbm: no metadata, nothing else changed.
    tagged = src / "tagged.jpg"
    write(tagged, pixels)
    tag(tagged, TAGS, 6)
    out = tmp / "tagged.ppm"
    rc, _, err = run(cli, [tagged, "--auto-orient", "--equalize", out])
    checks.report("a netpbm result: written upright", None if rc == 0
                  and read(out).shape[:2] == pixels.shape[1::-1] else f"exit {rc}: {err}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: cli_metadata.py PATH-TO-gpu-histogram-cli")
    cli = sys.argv[1]
    if not shutil.which("exiftool"):
        print("no exiftool (Debian: libimage-exiftool-perl): skipping")
        return 77
    p = subprocess.run([cli, "--help"], capture_output=True, text=True, timeout=60)
    line = next((ln for ln in p.stdout.splitlines() if ln.startswith("Metadata:")), "")
    if "keeps none" in line:
        print(f"this build keeps no metadata ({line}): skipping")
        return 77
    checks = Checks()
    rng = np.random.default_rng(38)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        check_formats(checks, cli, tmp, rng)
        check_orientations(checks, cli, tmp, rng)
        check_damaged(checks, cli, tmp, rng)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
