#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The CLI's JPEGs through libjpeg itself against GEGL's path (cli/jpeg_io.c).

Usage: cli_formats_jpeg.py PATH-TO-gpu-histogram-cli
(a) decoding and encoding: a gray and a colour JPEG (OpenCV's, quality 90; the
    colour one also progressive) equalized to JPEG at the default quality and at
    75, and binarized to PNG, give the same bytes as the same file with babl's
    sRGB profile embedded (the profile the CLI writes), which the CLI leaves to
    GEGL's jpg-load and jpg-save; the file without it is shown to take the
    other path: it is read and written with GEGL's modules out of reach
    (GEGL_PATH), the one with it then is not;
(b) encoding: a PPM and PGM written as JPEG (libjpeg) equal the same pixels as
    PNG written as JPEG (GEGL), at the default quality and at 75;
(c) damaged JPEGs (a truncated one, one with garbage in its data, one with no
    image), one at a time and among good ones on two workers: non-zero exit,
    "cannot read FILE: not a valid jpg file (why)", no file for them (nothing
    left in the folder for the lone one), the good ones written.
Exit status: 0 all passed, 1 something failed, 77 (meson: skipped) without
cv2/numpy/PIL, in a build without GEGL, or one whose JPEGs all go through GEGL.
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

ROOT = Path(__file__).resolve().parent.parent


def run(cli, args, env=None):
    """(exit status, stdout, stderr) of the CLI on the CPU."""
    p = subprocess.run([cli, "--backend", "cpu"] + [str(a) for a in args],
                       capture_output=True, text=True, timeout=300,
                       env=None if env is None else {**os.environ, **env})
    return p.returncode, p.stdout, p.stderr


def ok(cli, args, env=None):
    rc, out, err = run(cli, args, env)
    if rc:
        raise RuntimeError(f"exit {rc}: {err.strip()}")
    return out


def app2(path):
    """The file's first APP2 marker, whole (its ICC profile), or None."""
    d = path.read_bytes()
    i = 2
    while i + 4 <= len(d) and d[i] == 0xFF and d[i + 1] != 0xDA:
        end = i + 2 + (d[i + 2] << 8 | d[i + 3])
        if d[i + 1] == 0xE2:
            return d[i:end]
        i = end
    return None


def with_marker(data, marker):
    """JPEG bytes with `marker` put after their APP0 (JFIF) header."""
    if data[2:4] != b"\xff\xe0":
        raise ValueError("no JFIF header")
    end = 4 + (data[4] << 8 | data[5])
    return data[:end] + marker + data[end:]


def photo(gray):
    a = cv2.imread(str(ROOT / "testimages" / "chelsea.png"), cv2.IMREAD_COLOR)
    return cv2.cvtColor(a, cv2.COLOR_BGR2GRAY) if gray else a


def same_outputs(cli, tmp, a, b, env=None):
    """None when inputs a and b give the same bytes, else the difference."""
    outs = {}
    for name, src in (("a", a), ("b", b)):
        files = [tmp / f"{name}-eq90.jpg", tmp / f"{name}-eq75.jpg", tmp / f"{name}-bin.png"]
        ok(cli, [src, "--equalize", files[0], "--binarize", files[2]], env)
        ok(cli, [src, "--equalize", files[1], "--quality", 75], env)
        outs[name] = [f.read_bytes() for f in files]
    differ = [what for what, x, y in zip(("JPEG", "JPEG at 75", "PNG"), outs["a"], outs["b"])
              if x != y]
    return f"{', '.join(differ)} differ" if differ else None


def check_decode_encode(checks, cli, tmp, profile):
    for name, gray, params in (("gray", True, []), ("colour", False, []),
                               ("progressive colour", False, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])):
        problem = None
        try:
            src, tagged = tmp / "in.jpg", tmp / "in-srgb.jpg"
            cv2.imwrite(str(src), photo(gray), [cv2.IMWRITE_JPEG_QUALITY, 90] + params)
            tagged.write_bytes(with_marker(src.read_bytes(), profile))
            problem = same_outputs(cli, tmp, src, tagged)
            if problem is None:
                away = {"GEGL_PATH": str(tmp / "no-modules")}
                ok(cli, [src, "--equalize", tmp / "direct.jpg"], away)
                rc, _, _ = run(cli, [tagged, "--equalize", tmp / "gegl.jpg"], away)
                problem = "the tagged file read without GEGL's modules" if rc == 0 else None
        except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
            problem = str(e)
        checks.report(f"JPEG {name}: libjpeg's path gives GEGL's bytes", problem)


def check_encode(checks, cli, tmp):
    for name, gray, ext in (("gray", True, "pgm"), ("colour", False, "ppm")):
        problem = None
        try:
            cv2.imwrite(str(tmp / f"in.{ext}"), photo(gray))
            cv2.imwrite(str(tmp / "in.png"), photo(gray))
            problem = same_outputs(cli, tmp, tmp / f"in.{ext}", tmp / "in.png")
        except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
            problem = str(e)
        checks.report(f"{ext.upper()} to JPEG: libjpeg's bytes are GEGL's ({name})", problem)


def check_damaged(checks, cli, tmp):
    bad, out = tmp / "bad", tmp / "bad-out"
    bad.mkdir()
    out.mkdir()
    cv2.imwrite(str(bad / "good.jpg"), photo(False), [cv2.IMWRITE_JPEG_QUALITY, 90])
    good = (bad / "good.jpg").read_bytes()
    (bad / "truncated.jpg").write_bytes(good[:len(good) // 2])
    middle = len(good) // 2
    (bad / "scrambled.jpg").write_bytes(good[:middle] + bytes(range(256)) * 8
                                        + good[middle + 2048:])
    (bad / "garbage.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is no JPEG" * 10)
    damaged = ["truncated", "scrambled", "garbage"]
    for name in damaged:
        rc, _, err = run(cli, [bad / f"{name}.jpg", "--equalize", out / "x.jpg"])
        left = sorted(p.name for p in out.iterdir())
        said = err.strip().splitlines()[-1:] or [""]
        problem = ("exit 0" if rc == 0 else
                   f"message {said[0]!r}" if not said[0].startswith(
                       f"cannot read {bad / name}.jpg: not a valid jpg file (") else
                   f"left {left}" if left else None)
        checks.report(f"damaged JPEG refused, nothing written: {name} ({said[0]})", problem)
    problem = None
    names = ["good", "truncated", "scrambled", "garbage"]
    rc, _, err = run(cli, ["--threads", 2, "--equalize", out / "%n.jpg"]
                     + [bad / f"{n}.jpg" for n in names])
    said = [line.split()[2] for line in err.splitlines() if line.startswith("cannot read")]
    left = sorted(p.name for p in out.iterdir())
    problem = ("exit 0" if rc == 0 else
               f"messages for {said}" if said != [f"{bad / n}.jpg:" for n in damaged] else
               f"wrote {left}" if left != ["good.jpg"] else None)
    checks.report("damaged JPEGs among good ones on two workers", problem)


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: cli_formats_jpeg.py PATH-TO-gpu-histogram-cli")
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        cv2.imwrite(str(tmp / "probe.png"), photo(False))
        rc, _, err = run(cli, [tmp / "probe.png", "--equalize", tmp / "probe.jpg"])
        if rc and "built without GEGL" in err:
            print(f"{err.strip()}: skipping")
            return 77
        # The profile GEGL's jpg-save writes for an sRGB image.
        profile = app2(tmp / "probe.jpg") if rc == 0 else None
        if profile is None:
            print(f"no profile in the CLI's JPEG ({err.strip()}): skipping")
            return 77
        cv2.imwrite(str(tmp / "probe.jpg"), photo(False))
        if run(cli, [tmp / "probe.jpg"], {"GEGL_PATH": str(tmp / "no-modules")})[0]:
            print("this build reads JPEGs through GEGL only: skipping")
            return 77
        checks = Checks()
        check_decode_encode(checks, cli, tmp, profile)
        check_encode(checks, cli, tmp)
        check_damaged(checks, cli, tmp)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
