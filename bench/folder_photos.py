#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A folder of photos equalized: COUNT JPEG photos of 12 MP
(4000x3000, made from testimages/: a crop of each, scaled up, gray ones made
RGB, saved at quality 90), each channel equalized and written as JPEG at
quality 90 into an empty folder, by what a user would run:

  plugin-batch  plug-in-gpu-histogram-batch (operation 1) in gimp-console,
                with a statistics table; in GIMP 3 with --module, each
                file's equalize is GIMP's merged filter of the GEGL module;
  plugin-no-table  (GIMP 3) the same without a table: with the
                module no pixel moves through the plug-in;
  gimp-equalize a Script-Fu loop over the same files with GIMP's own
                gimp-drawable-equalize, saving as the batch does
                (gimp-file-save: GIMP's JPEG defaults, quality 90);
  gimp-load-save the same loop with no equalize: GIMP's load and save alone,
                the part of the two above that is not the operation;
                (these three in GIMP 2.10, and in GIMP 3 when its plug-in is
                given, run as the tests run it);
  mogrify       ImageMagick's `mogrify -equalize -quality 90` (if installed);
  cli           gpu-histogram-cli --equalize OUT/%n.jpg --quality 90 on all
                the files in one call, several at once (one per core);
  cli-1         the same with --threads 1: one file at a time, one counting
                thread.

Each is timed as one command from start to exit (GIMP's start included: a
user waits for it; its profile is made before), on the wall clock and in CPU
time (user + system of all its threads and processes: what stays put when
other work shares the cores), and its folder checked to hold every photo.
Prints seconds per photo and each one's ratios to GIMP's
own equalize and to ImageMagick's, and the CLI's --timings (where its time
goes: GEGL's start and the JPEG decoding, the count, the apply and encoding).

Usage: folder_photos.py CLI PLUGIN-GIMP2 [PLUGIN-GIMP3-IN-ENV] [--count N]
                        [--photos DIR] [--module GEGL-MODULE]
  (PLUGIN-GIMP2 `-`: no GIMP at all, for the GPU host, which has none)
  (--photos: where the photos are made, or reused when already there;
   --module: the GEGL module of the GIMP 3 plug-in's build, installed in its
   gimp-console runs as a user has it: build/gimp3-env/gegl/gpu-histogram-gegl.so)
"""
import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from plugin_gimp import GimpConsole, Host  # noqa: E402

WIDTH, HEIGHT, QUALITY = 4000, 3000, 90


def make_photos(folder, count):
    """COUNT photos, each a different crop of a test image scaled to 12 MP."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = sorted((ROOT / "testimages").glob("*.png"))
    rng = np.random.default_rng(27)
    for i in range(count):
        path = folder / f"photo{i:03d}.jpg"
        if path.exists():
            continue
        a = cv2.imread(str(sources[i % len(sources)]), cv2.IMREAD_COLOR)
        h, w = a.shape[:2]
        ch, cw = int(h * rng.uniform(0.6, 1.0)), int(w * rng.uniform(0.6, 1.0))
        y, x = rng.integers(0, h - ch + 1), rng.integers(0, w - cw + 1)
        big = cv2.resize(a[y:y + ch, x:x + cw], (WIDTH, HEIGHT), interpolation=cv2.INTER_CUBIC)
        cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    return sorted(folder.glob("photo*.jpg"))[:count]


def timed(argv, env=None):
    """((wall, cpu) seconds, stdout, stderr) of one command: cpu the user and
    system time of it and every process it waited for (GIMP's plug-ins),
    steadier than the wall clock on a busy machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=7200)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return (wall, cpu), p.stdout, p.stderr


def check(name, out, photos, seconds, log):
    made = sorted(out.glob("photo*.jpg"))
    if len(made) != len(photos):
        print(f"{name}: wrote {len(made)} of {len(photos)} photos\n{log[-2000:]}", file=sys.stderr)
        return None
    return seconds


def script_fu_loop(photos, out, apply):
    """Script-Fu that loads each photo, runs `apply` on its layer `drw` and
    saves it as JPEG with GIMP's defaults (quality 90), through the tests'
    Script-Fu for either GIMP (tests/plugin_gimp.py), as the batch saves."""
    define = ("(define (gh-one in out) (let* ((loaded (gh-load in)) (img (car loaded))"
              f" (drw (cadr loaded))) (gimp-image-undo-disable img) {apply}"
              " (gh-save img drw out) (gimp-image-delete img)))")
    return define + " " + " ".join(f'(gh-one "{f}" "{out / f.name}")' for f in photos)


def gimp_runs(plugin, host, photos, work, module=None):
    """Seconds of the batch, GIMP's equalize and GIMP's load and save alone
    (the same loop with no equalize: the floor of both) in one fresh profile
    of `host` (GIMP 3: with the GEGL `module` if given)."""
    results = {}
    with GimpConsole(plugin, host) as s:
        if module and host.gimp3:
            folder = s.dir / "data" / "gegl-0.4" / "plug-ins"
            folder.mkdir(parents=True)
            shutil.copy(module, folder)
            s.env["XDG_DATA_HOME"] = str(s.dir / "data")
        pattern = str(photos[0].parent / "photo*.jpg")
        runs = {
            "plugin-batch": lambda out: (f'(gh-batch RUN-NONINTERACTIVE "{pattern}" 1 '
                                         f'"{out}" "{work / "batch-stats.csv"}")'),
            "gimp-equalize": lambda out: script_fu_loop(photos, out, "(gimp-drawable-equalize drw FALSE)"),
            "gimp-load-save": lambda out: script_fu_loop(photos, out, ""),
        }
        if host.gimp3:
            runs["plugin-no-table"] = lambda out: (
                '(plug-in-gpu-histogram-batch #:run-mode RUN-NONINTERACTIVE'
                f' #:pattern "{pattern}" #:operation 1 #:output-dir "{out}")')
        for name, command in runs.items():
            out = work / f"{host.label}-{name}"
            out.mkdir()
            seconds, stdout, stderr = timed(host.argv([command(out)]), s.env)
            results[f"{name} {host.label}"] = check(name, out, photos, seconds, stdout + stderr)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cli")
    ap.add_argument("plugin_gimp2", help="the GIMP 2.10 plug-in, or - for no GIMP")
    ap.add_argument("plugin_gimp3", nargs="?",
                    help="the GIMP 3 plug-in (build/gpu-histogram-gimp3), run in "
                         "scripts/gimp3-env.sh's root (GH_GIMP3_ENV, GH_GIMP3)")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--photos", type=Path)
    ap.add_argument("--module", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gh-folder-", dir="/tmp") as d:
        work = Path(d)
        made = make_photos(args.photos or work / "photos", args.count)
        # A folder of exactly these, for the batch's pattern.
        (work / "in").mkdir()
        photos = []
        for f in made:
            photos.append(work / "in" / f.name)
            photos[-1].symlink_to(f.resolve())
        results = {}
        if args.plugin_gimp2 != "-":
            results.update(gimp_runs(args.plugin_gimp2, Host("gimp2"), photos, work))
        if args.plugin_gimp3:
            results.update(gimp_runs(args.plugin_gimp3, Host("gimp3"), photos, work,
                                     args.module))
        if shutil.which("mogrify"):
            out = work / "mogrify"
            out.mkdir()
            seconds, stdout, stderr = timed(["mogrify", "-path", str(out), "-equalize", "-quality",
                                             str(QUALITY)] + [str(f) for f in photos])
            results["mogrify"] = check("mogrify", out, photos, seconds, stdout + stderr)
        timings = []
        for name, threads in (("cli", []), ("cli-1", ["--threads", "1"])):
            out = work / name
            out.mkdir()
            seconds, stdout, stderr = timed([args.cli, "--equalize", str(out / "%n.jpg"),
                                             "--quality", str(QUALITY), "--timings"] + threads
                                            + [str(f) for f in photos])
            results[name] = check(name, out, photos, seconds, stdout + stderr)
            timings += [f"{name} {line}" for line in stderr.splitlines()
                        if line.startswith("timings:")]
    n = len(photos)
    print(f"{n} photos of {WIDTH}x{HEIGHT}, JPEG quality {QUALITY}, each channel equalized")
    print("seconds per photo, wall clock and CPU (user + system, all threads and"
          " processes), and ratios of each")
    print(f"{'method':<25} {'wall':>7} {'cpu':>7}   {'x gimp-equalize 2.10':>20}   {'x mogrify':>11}")
    gimp, magick = results.get("gimp-equalize GIMP 2.10"), results.get("mogrify")
    for name, seconds in results.items():
        if seconds is None:
            print(f"{name:<25} {'failed':>7}")
            continue

        def ratio(base):
            return (f"{seconds[0] / base[0]:.2f} {seconds[1] / base[1]:.2f}" if base else "-")
        print(f"{name:<25} {seconds[0] / n:7.3f} {seconds[1] / n:7.3f}   {ratio(gimp):>20}"
              f"   {ratio(magick):>11}")
    for line in timings:
        print(line)
    return 0 if all(v is not None for v in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
