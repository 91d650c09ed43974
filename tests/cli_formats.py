#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The CLI on PNG, JPEG, TIFF and WebP (read and written through GEGL).

Usage: cli_formats.py PATH-TO-gpu-histogram-cli
(a) round trips: --equalize from each format to itself, 8 and 16 bit (PNG, TIFF),
    gray and RGB, with and without alpha (8 bits only where OpenCV or PIL writes
    it: gray with alpha as PNG, RGBA as TIFF; JPEG in (c)): the file written keeps
    the size, bit depth, channels and alpha exactly; 8-bit PNG and TIFF results
    equal the CLI's on the same pixels as netpbm byte for byte, and without alpha
    OpenCV's equalizeHist per channel; WebP (lossy even at --quality 100: 4:2:0
    colour) within 3 levels on average of that; 16-bit results keep more than 8 bits, each
    channel's mapping is monotonic and, without alpha, within the heaviest bin's
    share of 255 of OpenCV's 8-bit equalizeHist (continuous curve vs steps);
(b) every operation on a PNG equals the CLI's on the same pixels as netpbm, and
    binarize's Otsu threshold and image equal cv2.threshold's (parity_opencv.py);
(b2) a netpbm image read whole once for CLAHE (its statistics counted from
    memory, CLAHE in place when it is the last operation): --clahe beside
    --equalize before it and --match and --posterize after it, and with
    --mask, prints and writes what each operation run alone does;
(c) JPEG: the result decoded is within JPEG's error of the equalized decoded input
    written losslessly (PNG), at the --quality asked;
(d) the input's ICC profile is in PNG, JPEG and TIFF results;
(e) several inputs with %n in the output name: one file each, equal to single runs;
(e2) several inputs at once (--threads 3) with unreadable ones among them (a
    truncated PNG, a corrupt JPEG, a missing file): the same exit status,
    stdout, messages (in input order) and output bytes as one at a time
    (--threads 1), nothing written for the bad ones;
(f) --mask as an 8-bit gray PNG, on 8-bit (= netpbm) and 16-bit images;
(g) bad input (missing, unknown extension, corrupt PNG and JPEG, a 16-bit image to
    netpbm, a colour mask, an output name with no %n for several inputs): non-zero exit, a
    message, and nothing written in the output folder (no temporary left).
Exit status: 0 all passed, 1 something failed, 77 (meson: skipped) without
cv2/numpy/PIL or in a build without GEGL.
"""
import io
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import cv2
    import numpy as np
    from PIL import Image
except ImportError as e:
    print(f"cannot import cv2/numpy/PIL ({e}): skipping")
    sys.exit(77)

from checks import Checks  # noqa: E402
from netpbm import read_pnm, write_pnm  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ICC = Path("/usr/share/color/icc/ghostscript/a98.icc")


def run(cli, args):
    """(exit status, stdout, stderr) of the CLI on the CPU."""
    p = subprocess.run([cli, "--backend", "cpu"] + [str(a) for a in args],
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def ok(cli, args):
    rc, out, err = run(cli, args)
    if rc:
        raise RuntimeError(f"exit {rc}: {err.strip()}")
    return out


def read(path):
    """The file decoded, channels in file order (RGB[A], gray): 8-bit with alpha
    by PIL (OpenCV reads gray with alpha as RGBA, and premultiplies a TIFF's),
    the rest by OpenCV."""
    a = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if a is None:
        raise ValueError(f"{path}: OpenCV cannot read it")
    with Image.open(path) as im:
        if a.dtype == np.uint8 and im.mode in ("LA", "RGBA"):
            return np.asarray(im)
    if a.ndim == 3:
        a = cv2.cvtColor(a, cv2.COLOR_BGRA2RGBA if a.shape[2] == 4 else cv2.COLOR_BGR2RGB)
    return a


def write(path, a, params=()):
    # OpenCV writes no gray with alpha, and RGBA TIFFs without ExtraSamples.
    if a.ndim == 3 and (a.shape[2] == 2 or (a.shape[2] == 4 and str(path).endswith(".tif"))):
        Image.fromarray(a, "LA" if a.shape[2] == 2 else "RGBA").save(path)
        return
    if a.ndim == 3:
        a = cv2.cvtColor(a, cv2.COLOR_RGBA2BGRA if a.shape[2] == 4 else cv2.COLOR_RGB2BGR)
    if not cv2.imwrite(str(path), a, list(params)):
        raise ValueError(f"OpenCV cannot write {path}")


def photo(channels, bits, rng):
    """Chelsea with `channels` channels at `bits` bits; alpha random."""
    rgb = read(ROOT / "testimages" / "chelsea.png")[:, :, :3]
    a = rgb if channels in (3, 4) else cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    if bits == 16:
        a = a.astype(np.uint16) * 257 + rng.integers(0, 256, a.shape, dtype=np.uint16)
    if channels in (2, 4):
        alpha = rng.integers(1, 1 << bits, a.shape[:2], dtype=np.uint64).astype(a.dtype)
        a = np.dstack([a, alpha])
    return a


def equalize_cv(a):
    if a.ndim == 2:
        return cv2.equalizeHist(a)
    return np.dstack([cv2.equalizeHist(np.ascontiguousarray(a[..., c])) for c in range(a.shape[2])])


def difference(got, want):
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"{got.shape} {got.dtype} != {want.shape} {want.dtype}"
    if not np.array_equal(got, want):
        return f"{int(np.count_nonzero(got != want))} samples differ"
    return None


def check_round_trip(checks, cli, tmp, ext, channels, bits, rng):
    a = photo(channels, bits, rng)
    src, out = tmp / f"in.{ext}", tmp / f"out.{ext}"
    color = a.shape[2] if a.ndim == 3 else 1
    what = f"round trip .{ext} {bits}-bit, {color} channels"
    params = [cv2.IMWRITE_WEBP_QUALITY, 101] if ext == "webp" else []
    try:
        write(src, a, params)
        a = read(src)  # what the file holds
        ok(cli, [src, "--equalize", out] + (["--quality", 100] if ext == "webp" else []))
        got = read(out)
        alpha = color in (2, 4)
        problem = (f"{got.shape} {got.dtype}, not {a.shape} {a.dtype}"
                   if got.shape != a.shape or got.dtype != a.dtype else
                   "alpha changed" if alpha and not np.array_equal(got[..., -1], a[..., -1]) else None)
        if problem is None and bits == 8:
            pam = tmp / "in.pam"
            write_pnm(pam, a)
            ok(cli, [pam, "--equalize", tmp / "out.pam"])
            want = read_pnm(tmp / "out.pam")[1].reshape(got.shape)
            if ext == "webp":
                err = np.abs(got.astype(float) - want).mean()
                problem = None if err <= 3.0 else f"mean error {err:.2f} > 3 (lossy)"
            else:
                problem = difference(got, want)
            if problem is None and not alpha and ext != "webp":
                problem = difference(got, equalize_cv(a))
        elif problem is None:
            problem = check_16(got, a)
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report(what, problem)


def check_16(got, a):
    """16-bit: more than 8 bits kept; per colour channel a monotonic mapping
    within 1/255 (plus a rounding) of OpenCV's 8-bit equalizeHist."""
    colors = got.shape[2] - 1 if got.ndim == 3 and got.shape[2] in (2, 4) else None
    if colors is not None:
        got, a = got[..., :colors], a[..., :colors]
    if np.all(got % 257 == 0):
        return "only 8-bit levels written"
    got3 = got.reshape(got.shape[0], got.shape[1], -1)
    a3 = a.reshape(got3.shape)
    for c in range(got3.shape[2]):
        order = np.argsort(a3[..., c], axis=None, kind="stable")
        if np.any(np.diff(got3[..., c].ravel()[order].astype(np.int64)) < 0):
            return f"channel {c}: not monotonic in the input"
    if colors is not None:
        return None  # alpha weighs the counts: no 8-bit twin
    # The float path maps a level by the continuous curve (each bin's count
    # spread across it), equalizeHist by the cumulative count to its bin's
    # end: they differ by at most the heaviest 8-bit bin's share of 255.
    a8 = (a3.astype(np.float64) / 257).round().astype(np.uint8)
    want8 = equalize_cv(a8).reshape(got3.shape)
    for c in range(got3.shape[2]):
        tolerance = 255 * np.bincount(a8[..., c].ravel(), minlength=256).max() / a8[..., c].size + 1.5
        worst = np.abs(got3[..., c] / 257.0 - want8[..., c]).max()
        if worst > tolerance:
            return f"channel {c}: {worst:.2f} levels from the 8-bit result (> {tolerance:.2f})"
    return None


def check_png_as_netpbm(checks, cli, tmp):
    rgb = read(ROOT / "testimages" / "coffee.png")[:, :, :3]
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    ref = read(ROOT / "testimages" / "astronaut.png")[:, :, :3]
    write(tmp / "ref.png", ref)
    write_pnm(tmp / "ref.ppm", ref)
    for name, a in (("gray", gray), ("rgb", rgb)):
        write(tmp / "a.png", a)
        write_pnm(tmp / "a.pam", a)
        for op, extra in (("equalize", []), ("binarize", []), ("clahe", ["--clip-limit", 3]),
                          ("posterize", ["--classes", 4]), ("match", ["--reference"])):
            problem = None
            try:
                outs = []
                for ext, refext in (("png", "png"), ("pam", "ppm")):
                    args = extra + [tmp / f"ref.{refext}"] if op == "match" else extra
                    stdout = ok(cli, [tmp / f"a.{ext}", f"--{op}", tmp / f"r.{ext}"] + args)
                    outs.append((stdout, tmp / f"r.{ext}"))
                got, want = read(outs[0][1]), read_pnm(outs[1][1])[1]
                problem = ("printed differently" if outs[0][0] != outs[1][0]
                           else difference(got, want.reshape(got.shape)))
                if problem is None and op == "binarize" and name == "gray":
                    t = int(outs[0][0].split("threshold:")[1].split()[0])
                    want_t, want = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
                    problem = (f"threshold {t} != cv2's {int(want_t)}" if t != int(want_t)
                               else difference(got, want))
            except (OSError, RuntimeError, ValueError, IndexError, subprocess.TimeoutExpired) as e:
                problem = str(e)
            checks.report(f"{op} {name}: PNG = netpbm" + (", = OpenCV" if op == "binarize"
                                                            and name == "gray" else ""), problem)


def check_clahe_read_once(checks, cli, tmp):
    rgb = read(ROOT / "testimages" / "coffee.png")[:, :, :3]
    mask = np.zeros(rgb.shape[:2], np.uint8)
    mask[40:300, 60:500] = 255
    write_pnm(tmp / "m.pgm", mask)
    write_pnm(tmp / "ref.ppm", read(ROOT / "testimages" / "astronaut.png")[:, :, :3])
    for name, a, ext in (("gray", cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), "pgm"), ("rgb", rgb, "ppm")):
        write_pnm(tmp / f"a.{ext}", a)
        for extra in ([], ["--mask", tmp / "m.pgm"]):
            problem = None
            try:
                ref = ["--reference", tmp / "ref.ppm"]
                alone = {op: ok(cli, [tmp / f"a.{ext}", f"--{op}", tmp / f"{op}1.{ext}"]
                                + (ref if op == "match" else []) + extra)
                         for op in ("equalize", "clahe", "match", "posterize")}
                both = ok(cli, [tmp / f"a.{ext}"] + ref + extra
                          + [a for op in alone for a in (f"--{op}", tmp / f"{op}2.{ext}")])
                stats = alone["clahe"]
                if both != stats + alone["posterize"][len(stats):]:
                    problem = f"printed {both!r}, not the statistics and thresholds alone"
                for op in alone:
                    if problem is None and (tmp / f"{op}1.{ext}").read_bytes() != (tmp / f"{op}2.{ext}").read_bytes():
                        problem = f"--{op} beside the others wrote other bytes"
            except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
                problem = str(e)
            checks.report(f"netpbm {name}{' with --mask' if extra else ''}: CLAHE read whole once "
                          f"= each operation alone", problem)


def check_jpeg(checks, cli, tmp):
    for name, channels in (("gray", 1), ("rgb", 3)):
        problem = None
        try:
            write(tmp / "in.jpg", photo(channels, 8, None), [cv2.IMWRITE_JPEG_QUALITY, 90])
            ok(cli, [tmp / "in.jpg", "--equalize", tmp / "lossless.png"])
            for q, tolerance in ((100, 1.0), (75, 4.0)):
                ok(cli, [tmp / "in.jpg", "--equalize", tmp / "out.jpg", "--quality", q])
                got, want = read(tmp / "out.jpg").astype(float), read(tmp / "lossless.png")
                err = np.abs(got - want).mean() if got.shape == want.shape else None
                if err is None or err > tolerance:
                    problem = f"quality {q}: " + (f"shape {got.shape}" if err is None
                                                  else f"mean error {err:.2f} > {tolerance}")
            # The lossless result is the equalize of GEGL's decoding of the
            # file, whose libjpeg may round a few samples unlike OpenCV's.
            if problem is None:
                decoded = read(tmp / "in.jpg")
                err = np.abs(read(tmp / "lossless.png").astype(float) - equalize_cv(decoded)).mean()
                problem = None if err <= 0.5 else f"{err:.2f} levels from OpenCV's decoding equalized"
        except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
            problem = str(e)
        checks.report(f"JPEG {name}: decoded result within JPEG's error of the lossless one", problem)


def check_icc(checks, cli, tmp):
    if not ICC.exists():
        checks.report(f"ICC profile kept (skipped: no {ICC})", None)
        return
    icc = ICC.read_bytes()
    im = Image.open(ROOT / "testimages" / "chelsea.png")
    for ext in ("png", "jpg", "tif"):
        problem = None
        try:
            im.save(tmp / f"icc.{ext}", icc_profile=icc)
            ok(cli, [tmp / f"icc.{ext}", "--equalize", tmp / f"icc-out.{ext}"])
            kept = Image.open(tmp / f"icc-out.{ext}").info.get("icc_profile")
            problem = None if kept == icc else "profile not kept"
        except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
            problem = str(e)
        checks.report(f"ICC profile kept in .{ext}", problem)


def check_several(checks, cli, tmp):
    (tmp / "photos").mkdir()
    (tmp / "out").mkdir()
    names = ["astronaut", "coffee", "chelsea"]
    problem = None
    try:
        for n in names:
            Image.open(ROOT / "testimages" / f"{n}.png").convert("RGB").save(
                tmp / "photos" / f"{n}.jpg", quality=90)
        stdout = ok(cli, ["--equalize", tmp / "out" / "%n-eq.jpg", "--histogram",
                          tmp / "out" / "%n.csv"] + [tmp / "photos" / f"{n}.jpg" for n in names])
        made = sorted(p.name for p in (tmp / "out").iterdir())
        want = sorted([f"{n}-eq.jpg" for n in names] + [f"{n}.csv" for n in names])
        problem = (f"wrote {made}" if made != want else
                   "no 'file:' line per input" if stdout.count("file: ") != len(names) else None)
        for n in names:
            if problem is None:
                ok(cli, [tmp / "photos" / f"{n}.jpg", "--equalize", tmp / "one.jpg"])
                if (tmp / "one.jpg").read_bytes() != (tmp / "out" / f"{n}-eq.jpg").read_bytes():
                    problem = f"{n}: not the single run's file"
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report("several inputs: one file each through %n, equal to single runs", problem)


def check_parallel(checks, cli, tmp):
    """Several files at once against one at a time: the same everything, in
    input order, with a corrupt and a missing file among the good ones."""
    folder = tmp / "mixed"
    folder.mkdir()
    names = ["astronaut", "coffee", "chelsea", "camera", "coins"]
    inputs = []
    for k, n in enumerate(names):
        img = Image.open(ROOT / "testimages" / f"{n}.png")
        inputs.append(folder / (f"{n}.jpg" if k % 2 == 0 else f"{n}.png"))
        if k % 2 == 0:
            img.convert("RGB").save(inputs[-1], quality=90)
        else:
            img.save(inputs[-1])
    # A corrupt PNG, a corrupt JPEG (GEGL's loader would exit the process on
    # it: the CLI refuses it first) and a missing file.
    (folder / "truncated.png").write_bytes(inputs[1].read_bytes()[:2000])
    (folder / "garbage.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is no JPEG" * 10)
    inputs[2:2] = [folder / "truncated.png", folder / "garbage.jpg", folder / "none.png"]
    runs = {}
    problem = None
    try:
        for threads in (1, 3):
            out = tmp / f"mixed-out-{threads}"
            out.mkdir()
            rc, stdout, stderr = run(cli, ["--threads", threads, "--equalize", out / "%n.png",
                                           "--binarize", out / "%n-bin.jpg"] + inputs)
            said = [line for line in stderr.splitlines() if line.startswith("cannot")]
            # All but the backend line ("cpu: N threads").
            stdout = "".join(line for line in stdout.splitlines(True)
                             if not line.startswith("backend: "))
            files = {p.name: p.read_bytes() for p in out.iterdir()}
            runs[threads] = (rc, stdout, said, files)
        rc, stdout, said, files = runs[3]
        order = [line[6:] for line in stdout.splitlines() if line.startswith("file: ")]
        want = sorted(f"{n}{tail}" for n in names for tail in (".png", "-bin.jpg"))
        problem = ("exit 0 with bad files" if rc == 0 else
                   f"'file:' lines {order}" if order != [str(p) for p in inputs if p.exists()
                                                           and p.name not in ("truncated.png",
                                                                              "garbage.jpg")]
                   else f"messages {said}" if [m.split()[2] for m in said] != [
                       str(p) + ":" for p in inputs[2:5]] else
                   f"wrote {sorted(files)}" if sorted(files) != want else
                   "not the one-at-a-time run's exit, stdout, messages or files"
                   if runs[1] != runs[3] else None)
    except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report("several inputs at once: order, bad files and bytes as one at a time", problem)


def check_mask(checks, cli, tmp):
    """--mask as a PNG: on an 8-bit PNG the statistics printed with the mask
    as P5 and the image as netpbm; on a 16-bit PNG (the mask widened to
    floats) the pixels counted are the mask's sum / 255."""
    rng = np.random.default_rng(7)
    a8, a16 = photo(3, 8, None), photo(3, 16, rng)
    mask = rng.integers(0, 256, a8.shape[:2], dtype=np.uint8)
    problem = None
    try:
        write(tmp / "m.png", mask)
        write_pnm(tmp / "m.pgm", mask)
        write(tmp / "a8.png", a8)
        write_pnm(tmp / "a8.ppm", a8)
        write(tmp / "a16.png", a16)
        png = ok(cli, [tmp / "a8.png", "--mask", tmp / "m.png"])
        pnm = ok(cli, [tmp / "a8.ppm", "--mask", tmp / "m.pgm"])
        deep = ok(cli, [tmp / "a16.png", "--mask", tmp / "m.png"])
        pixels = float(next(line for line in deep.splitlines()
                            if line.startswith("value,")).split(",")[2])
        want = mask.sum(dtype=np.float64) / 255
        problem = ("8-bit: not the netpbm statistics" if png != pnm else
                   None if abs(pixels - want) <= 1e-5 * want else
                   f"16-bit: {pixels} pixels counted, mask sum / 255 = {want}")
    except (OSError, RuntimeError, ValueError, IndexError, subprocess.TimeoutExpired) as e:
        problem = str(e)
    checks.report("--mask as a PNG: 8-bit = netpbm, 16-bit counts the mask", problem)


def check_refused(checks, cli, tmp):
    bad = tmp / "bad"
    bad.mkdir()
    png = io.BytesIO()
    Image.open(ROOT / "testimages" / "chelsea.png").save(png, format="PNG")
    (bad / "truncated.png").write_bytes(png.getvalue()[:2000])
    (bad / "garbage.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is no JPEG" * 10)
    (bad / "photo.xyz").write_bytes(png.getvalue())
    write(bad / "deep.png", photo(3, 16, np.random.default_rng(1)))
    write(bad / "fine.png", photo(3, 8, None))
    out = tmp / "refused"
    out.mkdir()
    cases = {
        "missing file": [bad / "none.png", "--equalize", out / "x.png"],
        "unknown input extension": [bad / "photo.xyz", "--equalize", out / "x.png"],
        "unknown output extension": [bad / "fine.png", "--equalize", out / "x.xyz"],
        "corrupt PNG": [bad / "truncated.png", "--equalize", out / "x.png"],
        "corrupt JPEG": [bad / "garbage.jpg", "--equalize", out / "x.jpg"],
        "16-bit image to netpbm": [bad / "deep.png", "--equalize", out / "x.ppm"],
        "a colour mask": [bad / "fine.png", "--mask", bad / "fine.png", "--equalize", out / "x.png"],
        "several inputs, one output name": [bad / "fine.png", bad / "fine.png",
                                            "--equalize", out / "x.png"],
    }
    for what, args in cases.items():
        rc, _, err = run(cli, args)
        left = sorted(p.name for p in out.iterdir())
        # The reason: a usage error's first line (the usage follows), else
        # the last (GEGL's and libpng's own lines come first).
        lines = err.strip().splitlines() or [""]
        message = lines[0] if rc == 2 else lines[-1]
        problem = ("exit 0" if rc == 0 else "no message" if not message
                   else f"left {left}" if left else None)
        checks.report(f"refused, nothing written: {what} ({message})", problem)


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: cli_formats.py PATH-TO-gpu-histogram-cli")
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        write(tmp / "probe.png", np.zeros((2, 2), np.uint8))
        rc, _, err = run(cli, [tmp / "probe.png"])
        if rc and "built without GEGL" in err:
            print(f"{err.strip()}: skipping")
            return 77
        checks = Checks()
        rng = np.random.default_rng(26)
        # Gray with alpha: 8-bit PNG only (what PIL writes; OpenCV writes none).
        for ext, bits, layouts in (("png", 8, (1, 2, 3, 4)), ("png", 16, (1, 3, 4)),
                                   ("tif", 8, (1, 3, 4)), ("tif", 16, (1, 3)),
                                   ("webp", 8, (3, 4))):
            for channels in layouts:
                check_round_trip(checks, cli, tmp, ext, channels, bits, rng)
        check_png_as_netpbm(checks, cli, tmp)
        check_clahe_read_once(checks, cli, tmp)
        check_jpeg(checks, cli, tmp)
        check_icc(checks, cli, tmp)
        check_several(checks, cli, tmp)
        check_parallel(checks, cli, tmp)
        check_mask(checks, cli, tmp)
        check_refused(checks, cli, tmp)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
