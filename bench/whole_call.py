#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Whole-call cost of the CLI: process start to exit, per image
size, --backend cpu against --backend auto, and a batch of files in one process.

  whole_call.py PATH-TO-gpu-histogram-cli [--quick] [--dir DIR] [--batch N]

Sizes 1 px, 1 MP, 12 MP, 48 MP and 200 MP (the last two where DIR has room; --quick
stops at 12 MP), random P6 files; runs alternate cpu and auto, medians of 7 runs
(5 at 48 MP, 3 at 200 MP) after one warm-up each, ratio auto / cpu (below 1: auto
is faster).  The batch: N files of 12 MP (default 100; --quick 10) given to ONE CLI
process (its multi-file mode: one engine, as the plug-in's batch), 3 runs each way,
with the CLI's --timings line (decode, count on each side, GPU ready, encode).
The resident's case: what the plug-in's resident process does while GIMP runs, one engine
kept over calls of any size after large calls started the GPU; as the CLI's
multi-file mode, large files (48 MP; --quick 12 MP) repeated until AUTO starts the
GPU for them (twice the work the engine's rule asks for, gpu/run/engine.c), then 1000
files of 1 px, 50 of 1 MP or 5 of 12 MP; each small file's cost is (the sequence's
time - the large files' alone) / their number, cpu against auto.
GPU_HISTOGRAM_BACKEND is removed from the environment (it would override --backend).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SIZES = [("1 px", 1, 1), ("1 MP", 1000, 1000), ("12 MP", 4000, 3000),
         ("48 MP", 8000, 6000), ("200 MP", 16000, 12500)]
ENV = {k: v for k, v in os.environ.items() if k != "GPU_HISTOGRAM_BACKEND"}


def write_p6(path, w, h, seed):
    data = bytearray(os.urandom(min(w * h * 3, 1 << 24)))
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h))
        left = w * h * 3
        while left:
            data = data[seed % 97 + 1:] + data[:seed % 97 + 1]  # not the same bytes twice
            n = min(left, len(data))
            f.write(data[:n])
            left -= n


def run(cli, backend, files):
    t = time.perf_counter()
    p = subprocess.run([cli, "--timings", "--backend", backend, *files], env=ENV,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"{cli} {backend} failed: {p.stderr}")
    names = sorted({ln[9:] for ln in p.stdout.splitlines() if ln.startswith("backend: ")})
    timing = [ln for ln in p.stderr.splitlines() if ln.startswith("timings: ")]
    return took, names, timing[-1] if timing else ""


def compare(cli, files, runs):
    run(cli, "cpu", files)  # warm-up: page cache, dynamic loader
    run(cli, "auto", files)
    got = {"cpu": [], "auto": []}
    last = {}
    for _ in range(runs):
        for b in ("cpu", "auto"):
            took, names, timing = run(cli, b, files)
            got[b].append(took)
            last[b] = (names, timing)
    return {b: statistics.median(v) for b, v in got.items()}, got, last


def resident_case(cli, tmp, quick):
    """The resident's case: small calls on an engine whose GPU a large call started."""
    big = os.path.join(tmp, "resident-big.ppm")
    w, h = (4000, 3000) if quick else (8000, 6000)
    write_p6(big, w, h, 7)
    # engine.c: a start when the CPU would take over START_SECONDS (0.35 s)
    # at CPU_PIXELS_PER_SECOND_PER_THREAD (150e6) a thread.
    bigs = [big] * -(-int(2 * 0.35 * 150e6 * os.cpu_count()) // (w * h))
    alone, _, _ = compare(cli, bigs, 5)
    rows = []
    for name, w, h, n in (("1 px", 1, 1, 1000), ("1 MP", 1000, 1000, 50),
                          ("12 MP", 4000, 3000, 5)):
        small = os.path.join(tmp, f"resident-{w}.ppm")
        write_p6(small, w, h, 3)
        med, _, last = compare(cli, bigs + [small] * n, 5)
        rows.append((name, n, {b: (med[b] - alone[b]) / n for b in med}, last["auto"][0]))
    os.unlink(big)
    return rows


def main():
    args = sys.argv[1:]
    quick = "--quick" in args
    args = [a for a in args if a != "--quick"]
    folder, batch = None, 10 if quick else 100
    if "--dir" in args:
        i = args.index("--dir")
        folder = args[i + 1]
        del args[i:i + 2]
    if "--batch" in args:
        i = args.index("--batch")
        batch = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        raise SystemExit(__doc__)
    cli = os.path.abspath(args[0])
    tmp = tempfile.mkdtemp(prefix="gh-whole-call-", dir=folder)
    try:
        rows = []
        for name, w, h in SIZES[:3] if quick else SIZES:
            need = w * h * 3 * 2
            if shutil.disk_usage(tmp).free < need:
                print(f"{name}: skipped, {tmp} has no room for {need >> 20} MB")
                continue
            path = os.path.join(tmp, f"{name.replace(' ', '')}.ppm")
            write_p6(path, w, h, 1)
            runs = 3 if w * h > 100e6 else 5 if w * h > 20e6 else 7
            med, allruns, last = compare(cli, [path], runs)
            rows.append((name, med, last["auto"][0]))
            print(f"{name}: cpu {[round(t * 1e3, 1) for t in allruns['cpu']]} ms, "
                  f"auto {[round(t * 1e3, 1) for t in allruns['auto']]} ms; "
                  f"auto: {last['auto'][1]}", flush=True)
            os.unlink(path)
        files = []
        for k in range(batch):
            files.append(os.path.join(tmp, f"b{k:03d}.ppm"))
            write_p6(files[-1], 4000, 3000, k)
        med, allruns, last = compare(cli, files, 3)
        resident = resident_case(cli, tmp, quick)
        print("\nCLI, process start to exit, median (ms); ratio auto / cpu")
        print("| image | cpu | auto | auto / cpu | auto counted by |")
        print("|---|---|---|---|---|")
        for name, m, names in rows:
            print(f"| {name} | {m['cpu'] * 1e3:.1f} | {m['auto'] * 1e3:.1f} | "
                  f"{m['auto'] / m['cpu']:.2f} | {', '.join(names)} |")
        print(f"| {batch} x 12 MP, one process | {med['cpu'] * 1e3:.0f} | "
              f"{med['auto'] * 1e3:.0f} | {med['auto'] / med['cpu']:.2f} | "
              f"{', '.join(last['auto'][0])} |")
        print("\nThe resident's case (one engine after large files started the GPU, as the resident): a small "
              "file's cost, ms")
        print("| image | files | cpu | auto | auto / cpu | auto counted by |")
        print("|---|---|---|---|---|---|")
        for name, n, cost, names in resident:
            print(f"| {name} | {n} | {cost['cpu'] * 1e3:.2f} | {cost['auto'] * 1e3:.2f} | "
                  f"{cost['auto'] / cost['cpu']:.2f} | {', '.join(names)} |")
        print(f"\nbatch runs: cpu {[round(t, 3) for t in allruns['cpu']]} s, "
              f"auto {[round(t, 3) for t in allruns['auto']]} s")
        for b in ("cpu", "auto"):
            print(f"batch {b}: {last[b][1]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
