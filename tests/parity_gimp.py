#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parity with GIMP: the CLI's statistics against gimp-drawable-histogram.

Usage: parity_gimp.py [--host gimp2|gimp3] PATH-TO-gpu-histogram-cli
Every row of tests/fixtures/gimp/stats.csv (GIMP 2.10's numbers) or, with
--host gimp3, tests/fixtures/gimp3/stats.csv (GIMP 3.0.4's) or, with GH_GIMP3=3.2
in the environment too, tests/fixtures/gimp32/stats.csv (GIMP 3.2.6's), made by
tests/fixtures/capture_gimp.sh HOST, is one check: the image converted to PAM, the CLI run with
--range start:end (and --mask), and its count, pixels, percentile, mean, std_dev and
median compared with GIMP's to 1e-6 relative (1e-9 absolute near 0). GIMP returns
mean, std-dev and median on the 0..255 scale for 8-bit images, as the CLI prints them.
GIMP 3 bins the luminance of linear light: the CLI is run with --luminance linear
there (GIMP 2.10's perceptual rule is the CLI's default).  For GIMP 3.2 the
rows that differ from GIMP 3.0's are named (a difference is reported, not
skipped: the CLI must then match each GIMP's own).
Exit status: 0 all passed, 1 something failed, 77 (meson: skipped) without cv2/numpy.
"""
import argparse
import csv
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

from netpbm import load_png, write_pnm  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHANNELS = ["value", "red", "green", "blue", "alpha", "luminance"]  # GIMP's numbering
FIELDS = ["count", "pixels", "percentile", "mean", "std_dev", "median"]


def run_cli(cli, args):
    """Run the CLI; return (backend line, {channel: {field: float}}) or raise RuntimeError."""
    p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"exit {p.returncode}: {p.stderr.strip()}")
    lines = p.stdout.splitlines()
    try:
        i = next(k for k, line in enumerate(lines) if line.startswith("channel,"))
    except StopIteration:
        raise RuntimeError(f"no statistics table in stdout: {p.stdout!r}")
    names = lines[i].split(",")
    table = {}
    for line in lines[i + 1:]:
        cells = line.split(",")
        if len(cells) != len(names):
            break
        table[cells[0]] = {n: float(c) for n, c in zip(names[1:], cells[1:])}
    return lines[0], table


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def name_differences(rows32, rows30):
    """Says which of GIMP 3.2's numbers differ from GIMP 3.0's (the same
    cases in both captures)."""
    def key(r):  # a mask GIMP 3.2 made differently is kept under its own folder
        return (r["image"], Path(r["mask"]).name, r["channel"], r["start"], r["end"])
    old = {key(r): r for r in rows30}
    differ = [(r, old.get(key(r))) for r in rows32]
    differ = [(r, o) for r, o in differ
              if o is None or any(not close(float(r[k]), float(o[k])) for k in FIELDS)]
    if not differ:
        print(f"GIMP 3.2 gives GIMP 3.0's numbers in all {len(rows32)} rows")
    for r, o in differ:
        what = f"{r['image']}{' mask ' + r['mask'] if r['mask'] else ''} " \
               f"{CHANNELS[int(r['channel'])]} {r['start']}:{r['end']}"
        print(f"GIMP 3.2 differs from 3.0: {what}: " + ("not captured in 3.0" if o is None else
              "; ".join(f"{k} {r[k]} (3.0: {o[k]})" for k in FIELDS
                        if not close(float(r[k]), float(o[k])))))


def close(got, want):
    return abs(got - want) <= max(1e-6 * abs(want), 1e-9)


def main():
    ap = argparse.ArgumentParser(prog="parity_gimp.py")
    ap.add_argument("--host", default="gimp2", choices=["gimp2", "gimp3"])
    ap.add_argument("cli")
    a = ap.parse_args()
    cli = a.cli
    v32 = a.host == "gimp3" and os.environ.get("GH_GIMP3") == "3.2"
    name = ("gimp32" if v32 else "gimp3") if a.host == "gimp3" else "gimp"
    rows = read_rows(ROOT / "tests" / "fixtures" / name / "stats.csv")
    extra, passed, failed = [], 0, 0
    if v32:
        name_differences(rows, read_rows(ROOT / "tests" / "fixtures" / "gimp3" / "stats.csv"))
    if a.host == "gimp3":
        p = subprocess.run([cli, "--help"], capture_output=True, text=True, timeout=60)
        if "--luminance" in p.stdout + p.stderr:
            extra = ["--luminance", "linear"]
        else:
            # The other channels are still checked; the luminance rows fail.
            print(f"FAIL {cli} has no --luminance option: GIMP 3's luminance is linear")
            failed += 1

    # One CLI run per image, mask and range; it prints every channel at once.
    groups = {}
    for row in rows:
        groups.setdefault((row["image"], row["mask"], row["start"], row["end"]), []).append(row)

    backend, backend_shown = None, False
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        converted = {}
        for (image, mask, start, end), group in groups.items():
            if image not in converted:
                converted[image] = tmp / f"{len(converted)}.pam"
                write_pnm(converted[image], load_png(ROOT / image))
            args = extra + ["--range", f"{start}:{end}", str(converted[image])]
            if mask:  # capture_gimp.sh already stored it as a plain P5 PGM
                args = ["--mask", str(ROOT / mask)] + args
            try:
                backend, table = run_cli(cli, args)
                error = None
            except (OSError, RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
                table, error = {}, str(e)
            if backend and not backend_shown:
                print(backend)
                backend_shown = True
            for row in group:
                channel = CHANNELS[int(row["channel"])]
                what = f"{image}{' mask ' + mask if mask else ''} {channel} {start}:{end}"
                want = {k: float(row[k]) for k in FIELDS}
                if want["count"] == 0:
                    # GIMP's "no median" is -1 scaled by 255 like a level; the CLI prints level -1
                    want["median"] = -1.0
                if error is not None:
                    problem = error
                elif channel not in table:
                    problem = f"channel {channel} missing from the CLI's output"
                else:
                    got = table[channel]
                    problem = "; ".join(f"{k} {got.get(k)!r} != GIMP {want[k]!r}" for k in FIELDS
                                        if k not in got or not close(got[k], want[k])) or None
                print(f"ok   {what}" if problem is None else f"FAIL {what}: {problem}")
                passed += problem is None
                failed += problem is not None
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
