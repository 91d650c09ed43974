#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""BENCHMARKS.md's tables as data: each row's figure, what it is measured
against, what bounds it and the command that measures it.

  bench/tables.py run CLASS [--build DIR] [--only TEXT]
      runs each row's command of CLASS (gpu, cpu16, dev) on this machine
      and prints the table in markdown with today's date and the measured
      ratios; a row this machine cannot run (no GPU, no GIMP, a path not
      built) is named, with why, in one line and skipped; exit 1 when a
      row's command gave no figure.  --build: the
      build folder (default build-device for gpu and cpu16, as
      bench/device-run.sh makes it, build for dev); --only: the rows whose
      "what" TEXT (a regular expression) matches.  Each distinct command
      runs once.
  bench/tables.py check BENCHMARKS.md
      every table row carries a date (YYYY-MM-DD), a machine class and a
      command naming a bench/ script or a built program, is a row of this
      file's data for its table's class with the same command, each table
      is preceded by its `bench/tables.py run CLASS` line, and the file has
      at most 400 lines.  Exit 0 when so, 1 naming the row when not.

On the GPU host: `STAGES=tables bash bench/device-run.sh` (runs gpu and
cpu16).  Figures are ratios taken within one run of one command.
"""
import csv
import io
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 400
CLASSES = {
    "gpu": "GPU host",
    "cpu16": "16-core host",
    "dev": "2-core dev",
}
DEFAULT_BUILD = {"gpu": "build-device", "cpu16": "build-device", "dev": "build"}
PROGRAMS = ("gpu-histogram-bench", "gpu-histogram-cli", "gimp-console-2.10", "ncu")


# ---------------------------------------------------------------- parsing
def rng(values, fmt="{:.2f}", suffix=""):
    """"0.93-0.95x" from a list of numbers (one number when all equal)."""
    values = [v for v in values if v is not None]
    if not values:
        raise ValueError("no figure in the output")
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return (lo if lo == hi else f"{lo}-{hi}") + suffix


def section(out, start):
    """The lines of OUT after the first line starting with START, up to a
    blank line."""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(start):
            body = []
            for rest in lines[i + 1:]:
                if not rest.strip():
                    break
                body.append(rest)
            return body
    raise ValueError(f"no '{start}' section in the output")


CAP_COLUMNS = ("raw", "gimp", "gimp-linear", "weighted", "alpha")


def caps(out):
    """{cap: {'lowest': [..5], 'level': [..5]}} from gpu-histogram-bench's
    caps table."""
    table = {}
    for line in section(out, "== Shared-memory caps: the chosen kernel"):
        m = re.match(r"(none|\d+ KB)\s+(lowest|level)\s+(.*)$", line)
        if m:
            table.setdefault(m.group(1), {})[m.group(2)] = [float(x) for x in m.group(3).split()]
    if not table:
        raise ValueError("no caps table in the output")
    return table


def caps_row(column, which=None):
    def parse(out):
        table, j = caps(out), CAP_COLUMNS.index(column)
        keys = [k for k in table if which is None or k in which]
        return (rng([table[k]["lowest"][j] for k in keys]) + " of read, level "
                + rng([table[k]["level"][j] for k in keys]))
    return parse


def alpha_row(out):
    table, j = caps(out), CAP_COLUMNS.index("alpha")
    under = [k for k in table if k != "none"]
    return (f"{table['none']['lowest'][j]:.2f} / {table['none']['level'][j]:.2f} (none); "
            + rng([table[k]["lowest"][j] for k in under]) + " / "
            + rng([table[k]["level"][j] for k in under]) + " (163, 99, 64 KB)")


def cub_row(out):
    """The chosen raw kernel's GB/s over CUB<4,4>'s, per input."""
    got = []
    for line in section(out, "== Image on the GPU, raw"):
        m = re.match(r"(\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+\|\s+(.*)$", line)
        if m and m.group(1) != "input":
            chosen = float(m.group(5).split()[-2])
            got.append(f"{chosen / float(m.group(3)):.2f}x {m.group(1)}")
    return ", ".join(got)


def gray_row(out):
    vals = []
    for line in section(out, "== Gray images on the GPU"):
        toks = line.split()
        if len(toks) == 7 and toks[0] != "input":
            vals.append(float(toks[-1]))
    return rng(vals) + " of read"


def onchip(out):
    """{mode: [(ratio, binding, read GB/s, on-chip GB/s) an input]} from
    gpu-histogram-bench's on-chip table."""
    table = {}
    for line in section(out, "== On-chip ceiling"):
        m = re.match(r"(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+(read|on-chip)$", line)
        if m:
            table.setdefault(m.group(1), []).append(
                (float(m.group(6)), m.group(7), float(m.group(3)), float(m.group(4))))
    if not table:
        raise ValueError("no on-chip table in the output")
    return table


def onchip_row(mode):
    def parse(out):
        rows = onchip(out)[mode]
        binding = "/".join(sorted({r[1] for r in rows}))
        return (rng([r[0] for r in rows]) + f" of {binding} (on-chip "
                + rng([r[3] / 1e3 for r in rows if r[3] < 1e9], fmt="{:.1f}") + ", read "
                + rng([r[2] / 1e3 for r in rows], fmt="{:.1f}") + " TB/s)")
    return parse


def host_row(kind):
    def parse(out):
        m = re.search(r"engine, %s input:\s*[\d.]+ ms\s+[\d.]+ GB/s\s+([\d.]+)" % kind, out)
        if not m:
            raise ValueError(f"no 'engine, {kind} input' line")
        return f"{float(m.group(1)):.2f}" + (" of a pinned copy" if kind == "pinned"
                                              else "x a pageable copy + kernel")
    return parse


def startup_row(out):
    m = re.search(r"first engine ([\d.]+) ms .*another ([\d.]+) ms", out)
    if not m:
        raise ValueError("no 'GPU start-up' line")
    return f"{float(m.group(1)):.0f} ms, another {float(m.group(2)):.0f} ms"


def cpu_bench(out):
    """{input: (1 thread, all threads)} and the two levels from the
    benchmark's CPU part."""
    rows, level = {}, None
    for line in section(out, "== CPU backend:"):
        toks = line.split()
        if toks[0] == "level":
            level = (float(toks[1]), float(toks[2]))
        elif len(toks) == 3 and re.fullmatch(r"[\d.]+", toks[1] + toks[2]):
            rows[toks[0]] = (float(toks[1]), float(toks[2]))
    if level is None:
        raise ValueError("no CPU level line")
    return rows, level


def cpu_level_row(out):
    rows, level = cpu_bench(out)
    return (f"level {level[0]:.2f} / {level[1]:.2f} (1 / all threads; "
            + rng([r[0] for r in rows.values()]) + " / "
            + rng([r[1] for r in rows.values()]) + " GB/s)")


def opencv_six(out):
    """The engine over OpenCV's six histograms, 1 thread and all threads,
    from cpu_vs_opencv.py's table."""
    one, many = [], []
    for line in section(out, "== Beside OpenCV"):
        toks = line.split()
        if len(toks) == 9 and toks[0] != "input":
            one.append(float(toks[5]))
            many.append(float(toks[8]))
    return rng(one, suffix="x") + " (1 thread), " + rng(many, "{:.1f}", "x") + " (all threads)"


def clahe_rows(out):
    """{(image, threads): columns from the end} of clahe_vs_opencv.py."""
    got = {}
    body = section(out, "(engine: in strips")
    for line in body[1:]:
        toks = line.split()
        if len(toks) >= 13:
            got[(toks[0], int(toks[1]))] = toks
    if not got:
        raise ValueError("no CLAHE table")
    return got


def clahe_cpu(threads):
    """The engine's CPU (strips) over OpenCV's CPU time, gray and RGB."""
    def parse(out):
        rows = clahe_rows(out)
        t = max(k[1] for k in rows) if threads == "all" else threads
        return ", ".join(f"{k[0]} {v[-9]}" for k, v in rows.items() if k[1] == t)
    return parse


def clahe_gpu(column):
    """OpenCV's CPU time on all threads over the GPU's whole call."""
    def parse(out):
        rows = clahe_rows(out)
        t = max(k[1] for k in rows)
        i = -4 if column == "pageable" else -2
        return ", ".join(f"{k[0]} {v[i]}" for k, v in rows.items() if k[1] == t)
    return parse


def clahe_cli(column, images=("gray-pgm", "rgb-ppm")):
    """A ratio column of bench/clahe_cli.py (vs apply, vs file, rest vs
    equalize) for each of IMAGES."""
    def parse(out):
        body = section(out, "== the CLI's CLAHE call")
        got = {t[0]: t for t in (line.split() for line in body[1:]) if len(t) == 11}
        i = {"apply": 8, "file": 9, "equalize": 10}[column]
        return ", ".join(f"{k} {got[k][i]}" for k in images)
    return parse


def ncu_counts(mode):
    """One count mode's profile over the inputs, from ncu's raw CSV of
    gpu-histogram-bench --profile-counts (its "profiled: MODE, INPUT,
    VARIANT" lines name the rows in order): speed of light, occupancy,
    issue, the top stall reasons and shared memory's atomics and bank
    conflicts."""
    def parse(out):
        names = [ln.split(": ", 1)[1].split(", ") for ln in out.splitlines()
                 if ln.startswith("profiled: ")]
        lines = out.splitlines()
        first = next(i for i, ln in enumerate(lines) if ln.startswith('"ID"'))
        rows = list(csv.reader(io.StringIO("\n".join(ln for ln in lines[first:]
                                                     if ln.startswith('"')))))
        head, data = rows[0], rows[2:]
        mine = [r for r, n in zip(data, names) if n[0] == mode]
        if not mine:
            raise ValueError(f"no {mode} kernel in the profile")

        def val(key):
            return [float(r[head.index(key)].replace(",", "")) for r in mine]
        pct = "{:.0f}"
        conflicts = [c / w for c, w in zip(val("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"),
                                           val("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"))]
        stalls = {h.split("stalled_")[1].split("_per_issue")[0]: sum(val(h))
                  for h in head if h.startswith("smsp__average_warps_issue_stalled_")
                  and h.endswith("_per_issue_active.ratio") and "stalled_selected_" not in h}
        top = sorted(stalls, key=stalls.get, reverse=True)[:3]
        return (f"SOL memory {rng(val('gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'), pct)} %, "
                f"compute {rng(val('sm__throughput.avg.pct_of_peak_sustained_elapsed'), pct)} %, "
                f"DRAM {rng(val('dram__bytes_read.sum.pct_of_peak_sustained_elapsed'), pct)} %, "
                f"L1/shared {rng(val('l1tex__throughput.avg.pct_of_peak_sustained_active'), pct)} %; "
                f"occupancy {rng(val('sm__warps_active.avg.pct_of_peak_sustained_active'), pct)} %; "
                f"issued {rng(val('smsp__issue_active.avg.per_cycle_active'))} a cycle; "
                f"stalls {', '.join(t.replace('_', ' ') for t in top)}; "
                f"{rng([v / 1e6 for v in val('smsp__inst_executed_op_shared_atom.sum')], '{:.1f}')} M "
                f"shared atomics, bank conflicts {rng([c * 100 for c in conflicts], pct)} % "
                f"of shared wavefronts ({mine[0][head.index('Kernel Name')].split('(')[0].replace('void ', '')})")
    return parse


def ncu_clahe(image_bytes):
    """Kernel time of the two whole calls in the profile / 2, over the
    image's read + write at 2.9 TB/s (the H100's read ceiling)."""
    def parse(out):
        lines = [ln for ln in out.splitlines() if ln.startswith('"')]
        total = 0.0
        for r in csv.DictReader(io.StringIO("\n".join(lines))):
            if r.get("Metric Name") == "gpu__time_duration.sum":
                scale = {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6,
                         "ms": 1e-3, "msecond": 1e-3}[r["Metric Unit"]]
                total += float(r["Metric Value"].replace(",", "")) * scale
        if not total:
            raise ValueError("no kernel times in ncu's CSV")
        per_call = total / 2
        return f"{per_call * 1e6:.0f} us, {per_call / (2 * image_bytes / 2.9e12):.1f}x"
    return parse


def whole_batch(out):
    m = re.search(r"\| (\d+) x 12 MP, one process \| (\d+) \| (\d+) \| ([\d.]+) \|", out)
    if not m:
        raise ValueError("no batch row")
    return f"{m.group(4)} ({m.group(2)} / {m.group(3)} ms)"


def folder(out):
    """{method: wall seconds a photo} from folder_photos.py (each run)."""
    runs, cur = [], None
    for line in out.splitlines():
        if line.startswith("method "):
            cur = {}
            runs.append(cur)
            continue
        m = re.match(r"(\S.*?)\s+(\d+\.\d{3})\s+(\d+\.\d{3})\s{3}", line)
        if cur is not None and m:
            cur[m.group(1)] = float(m.group(2))
    if not runs:
        raise ValueError("no folder table")
    return runs


def folder_ratio(method, base, hosts=("GIMP 3", "GIMP 3.2")):
    def parse(out):
        vals = []
        for run in folder(out):
            for h in hosts:
                a, b = run.get(f"{method} {h}".strip()), run.get(f"{base} {h}".strip())
                if a and b:
                    vals.append(a / b)
        return rng(vals, suffix="x")
    return parse


def folder_cli(method):
    def parse(out):
        return rng([r[method] / r["mogrify"] for r in folder(out)
                    if method in r and "mogrify" in r], suffix="x")
    return parse


def photo_rate(out, op, who):
    """Photos a second of one run from photo_folder_gpu.py's last table."""
    m = re.search(rf"^\| {op} \| {who} \| ([\d.]+) \|", out, re.M)
    if not m:
        raise ValueError(f"no {op} {who} row")
    return float(m.group(1))


def photo_ratio(who, base="cpu", op="equalize"):
    def parse(out):
        a, b = photo_rate(out, op, who), photo_rate(out, op, base)
        return f"{a / b:.2f}x ({a:.1f} / {b:.1f} photos/s)"
    return parse


def photo_overlap(op):
    """The whole run's rate over its slowest stage's alone."""
    def parse(out):
        m = re.search(rf"^overlap, {op}: the whole run ([\d.]+) photos/s, the slowest stage "
                      rf"alone \((\S+)\) ([\d.]+): ([\d.]+) of it; after the GPU's start "
                      rf"\([\d.]+ s\): ([\d.]+) of it", out, re.M)
        if not m:
            raise ValueError(f"no overlap line for {op}")
        return (f"{m.group(4)} ({m.group(1)} / {m.group(3)} photos/s, {m.group(2)}); "
                f"{m.group(5)} after the GPU's start")
    return parse


def photo_decoders(out):
    m = re.search(r"decoded max (\d+), mean ([\d.-]+); equalized max (\d+), mean ([\d.-]+)", out)
    if not m:
        raise ValueError("no decoders line")
    return (f"decoded max {m.group(1)}, mean {m.group(2)}; "
            f"equalized max {m.group(3)}, mean {m.group(4)}")


def gimp_calls(out):
    """{(host, op, size): (resident ms, GIMP ms, resident / GIMP)}."""
    got = {}
    for line in out.splitlines():
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) == 9 and c[0] in ("gimp2", "gimp3"):
            got[(c[0], c[1], c[2])] = (float(c[3]), float(c[5]), float(c[6]))
    if not got:
        raise ValueError("no gimp_calls table")
    return got


def call_ratio(host, op, size):
    def parse(out):
        r = gimp_calls(out)[(host, op, size)]
        return f"{r[2]:.2f}x ({r[0]:g} / {r[1]:g} ms)"
    return parse


def call_diff(host, op, size):
    def parse(out):
        r = gimp_calls(out)[(host, op, size)]
        return f"{r[0] - r[1]:+.1f} ms ({r[0]:g} / {r[1]:g} ms)"
    return parse


def gegl_call(what):
    """/ GIMP's own equalize for each GIMP in the output."""
    def parse(out):
        got, version = [], None
        for line in out.splitlines():
            m = re.match(r"GIMP (\S+), 6400 x 4000", line)
            if m:
                version = m.group(1).rstrip(",")
            elif line.strip().startswith(what) and version:
                tail = line.strip()[len(what):].split()
                got.append(f"{float(tail[1]):.2f}x ({version})")
        return ", ".join(got) or "no figure"
    return parse


def gegl_memory(case, base):
    """The case's extra MiB over GIMP's own equalize's, for each GIMP."""
    def parse(out):
        got, version, extra = [], None, {}
        for line in out.splitlines() + ["GIMP end, 0 x 0"]:
            m = re.match(r"GIMP (\S+?)(?:'s GUI)?, \d+ x \d+", line)
            if m:
                if version and case in extra and base in extra:
                    got.append(f"{extra[case] / extra[base]:.2f}x "
                               f"({extra[case]:.0f} / {extra[base]:.0f} MiB, {version})")
                version, extra = m.group(1).rstrip(","), {}
                continue
            toks = line.split()
            if len(toks) >= 6 and toks[0] in (case, base):
                extra[toks[0]] = float(toks[5])
        return ", ".join(got) or "no figure"
    return parse


def live_filters(view, base):
    """The module's live filters' re-render over `base`'s (GIMP's own) in
    `view`, for each GIMP in bench/live_filters.py's output: the range of
    the ratios and of the module's ms."""
    ours = ("threshold", "equalize", "clahe-clip", "clahe-mode", "posterize")

    def parse(out):
        got, version, where, ms = [], None, None, {}
        for line in out.splitlines() + ["GIMP end, 0 x 0"]:
            m = re.match(r"GIMP (\S+?)(?:'s GUI)?, \d+ x \d+", line)
            if m:
                if version and base in ms and all(o in ms for o in ours):
                    r = [ms[o] / ms[base] for o in ours]
                    got.append(f"{min(r):.2f}-{max(r):.2f}x ({min(ms[o] for o in ours):.0f}-"
                               f"{max(ms[o] for o in ours):.0f} / {ms[base]:.0f} ms, {version})")
                version, ms = m.group(1).rstrip(","), {}
                continue
            toks = line.split()
            if toks[:1] == ["view"]:
                where = toks[1]
            elif where == view and len(toks) >= 3 and toks[0] in ours + (base,):
                ms[toks[0]] = float(toks[1])
        return ", ".join(got) or "no figure"
    return parse


def curves(out):
    ms = dict(re.findall(r"(equalize|curves-x3|curves-x1|histogram) ([\d.]+) ms", out))
    return f"{float(ms['curves-x3']) / float(ms['equalize']):.2f}x"


# ---------------------------------------------------------------- the rows
PHOTO = "/tmp/astronaut.pam"
BENCH = "{build}/bench/gpu-histogram-bench --megapixels 64 --photo " + PHOTO
CLAHE16 = ("python3 bench/clahe_vs_opencv.py {build}/bench/gpu-histogram-bench "
           "testimages/astronaut.png 5 --threads 1,0 --rounds 3 --sizes 4000x3000,8000x6000")
CLAHE_CLI = ("/usr/bin/python3 bench/clahe_cli.py {build}/cli/gpu-histogram-cli "
             "{build}/bench/gpu-histogram-bench testimages/chelsea.png --repeat 5 --rounds 3")
NCU = ("ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes.sum,"
       "sm__cycles_elapsed.avg.per_second --csv "
       "{build}/bench/gpu-histogram-bench --repeat 1 --clahe-whole --clahe /tmp/clahe-%s")
GEGL = ("python3 bench/gegl_calls.py {build}/gimp3-env --gimp 3.0 --repeat 3 && "
        "python3 bench/gegl_calls.py {build}/gimp32-env --gimp 3.2 --repeat 3")
LIVE = ("python3 bench/live_filters.py {build}/gimp3-env --gimp 3.0 --repeat 5 && "
        "python3 bench/live_filters.py {build}/gimp32-env --gimp 3.2 --repeat 5")
LIVE_CANVAS = ("python3 bench/live_filters.py {build}/gimp3-env --gimp 3.0 --repeat 7 --canvas && "
               "python3 bench/live_filters.py {build}/gimp32-env --gimp 3.2 --repeat 7 --canvas")
GEGL_MEM = ("python3 bench/gegl_memory.py {build}/gimp3-env --gimp 3.0 && "
            "python3 bench/gegl_memory.py {build}/gimp32-env --gimp 3.2")
FOLDER3 = ("GH_GIMP3_ENV=$PWD/scripts/gimp3-env.sh GH_GIMP3=3.0 /usr/bin/python3 "
           "bench/folder_photos.py {build}/cli/gpu-histogram-cli - {build}/gpu-histogram-gimp3 "
           "--count 20 --photos /tmp/folder50 --module {build}/gimp3-env/gegl/gpu-histogram-gegl.so"
           " && GH_GIMP3_ENV=$PWD/scripts/gimp3-env.sh GH_GIMP3=3.2 /usr/bin/python3 "
           "bench/folder_photos.py {build}/cli/gpu-histogram-cli - {build}/gpu-histogram-gimp32 "
           "--count 20 --photos /tmp/folder50 --module {build}/gimp32-env/gegl/gpu-histogram-gegl.so")
FOLDER2 = ("GH_GIMP3_ENV=$PWD/scripts/gimp3-env.sh GH_GIMP3=3.0 /usr/bin/python3 "
           "bench/folder_photos.py {build}/cli/gpu-histogram-cli {build}/plugin/gimp2/gpu-histogram "
           "{build}/gpu-histogram-gimp3 --count 20 --photos /tmp/folder50 "
           "--module {build}/gimp3-env/gegl/gpu-histogram-gegl.so")
CALLS = ("GH_GIMP3_ENV=$PWD/scripts/gimp3-env.sh /usr/bin/python3 bench/gimp_calls.py "
         "{build}/plugin/gimp2/gpu-histogram {build}/gpu-histogram-gimp3 --repeat 3 "
         "--sizes 1x1,1MP --calls 20 --who gimp,resident")
CALLS2 = ("/usr/bin/python3 bench/gimp_calls.py {build}/plugin/gimp2/gpu-histogram "
          "--repeat 3 --sizes 1MP,25.6MP --calls 10 --ops equalize --who gimp,resident")
BIN2 = ("/usr/bin/python3 bench/gimp_calls.py {build}/plugin/gimp2/gpu-histogram "
        "--repeat 3 --sizes %s --calls %d --ops %s --who gimp,resident")

PHOTOS = ("python3 bench/photo_folder_gpu.py {build}/cli/gpu-histogram-cli /tmp/b/gpu-histogram-cli "
          "--count 1000 --mogrify /tmp/b/mogrify --test {build}/tests/test_photo_gpu")
PHOTOS_STAGES = PHOTOS + " --stages {build}/bench/photo-stages"
READ = "read ceiling, same image (of it)"
ONCHIP = ("the lower of the read ceiling and the same kernel on an L2-resident slice "
          "(of it; lowest input)")
NCU_COUNTS = ("ncu --clock-control none --profile-from-start off --section SpeedOfLight "
              "--section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis_Tables "
              "--section ComputeWorkloadAnalysis --section LaunchStats --csv --page raw "
              "{build}/bench/gpu-histogram-bench --profile-counts --megapixels 64 --photo " + PHOTO)
PROFILE = "ncu on the H200, each input once, no cap (% of peak)"
LAT = "latency at half occupancy (ncu: 8 of 16 warps a scheduler, instructions issued in 65 % of cycles)"
LAT99 = "latency at half occupancy (ncu: instructions issued in 52-55 % of cycles, shared pipe 53 %, DRAM 51 %)"

# (what, anchor, bound, command, parse, needs)
ROWS = {
    "gpu": [
        ("counts, the four stored channels (raw), every cap", READ, "DRAM read", BENCH,
         caps_row("raw"), ["gpu"]),
        ("counts, GIMP's six channels, every cap", READ,
         "within 0.12 of DRAM read (not profiled further)", BENCH, caps_row("gimp"), ["gpu"]),
        ("counts, GIMP 3's luminance, none and 163 KB", READ, LAT, BENCH,
         caps_row("gimp-linear", ("none", "163 KB")), ["gpu"]),
        ("counts, GIMP 3's luminance, 99 KB", READ, LAT99, BENCH,
         caps_row("gimp-linear", ("99 KB",)), ["gpu"]),
        ("counts, GIMP 3's luminance, 64 KB", READ,
         "shared-memory passes: 16 table copies beside 48 KB of counts", BENCH,
         caps_row("gimp-linear", ("64 KB",)), ["gpu"]),
        ("counts, partial alpha and a mask (weighted), every cap",
         "read ceiling with the mask's read (of it)", "DRAM read", BENCH, caps_row("weighted"), ["gpu"]),
        ("counts, soft-edged layers (alpha)", READ,
         "the smaller kernel chosen under a cap", BENCH, alpha_row, ["gpu"]),
        ("counts, raw, against CUB", "CUB MultiHistogramEven<4,4>, same image (it / ours)",
         "DRAM read (ours); CUB's atomics contend on repeated values", BENCH, cub_row, ["gpu"]),
        ("counts, gray images", READ, "DRAM read", BENCH, gray_row, ["gpu"]),
        ("counts against min (read, on-chip), raw, no cap", ONCHIP, "DRAM read", BENCH,
         onchip_row("raw"), ["gpu"]),
        ("counts against min (read, on-chip), GIMP's six channels, no cap", ONCHIP,
         "the shared-memory counting (on-chip below read); profiled below",
         BENCH, onchip_row("gimp"), ["gpu"]),
        ("counts against min (read, on-chip), GIMP 3's luminance, no cap", ONCHIP,
         "the shared-memory counting (on-chip below read); profiled below",
         BENCH, onchip_row("gimp-linear"), ["gpu"]),
        ("counts against min (read, on-chip), weighted, no cap", ONCHIP,
         "DRAM read of image and mask, not reached; profiled below", BENCH,
         onchip_row("weighted"), ["gpu"]),
        ("counts against min (read, on-chip), alpha, no cap", ONCHIP,
         "the shared-memory counting (on-chip below read); profiled below",
         BENCH, onchip_row("alpha"), ["gpu"]),
        ("ncu profile, GIMP's six channels, no cap", PROFILE,
         "instruction issue at half occupancy (a 1024-thread block of 192 KB an SM): warps ready "
         "but not selected", NCU_COUNTS, ncu_counts("gimp"), ["gpu", "ncu"]),
        ("ncu profile, GIMP 3's luminance, no cap", PROFILE,
         "the L1/shared pipe (the luminance table's loads beside the atomics) and the loads' "
         "latency at half occupancy", NCU_COUNTS, ncu_counts("gimp-linear"), ["gpu", "ncu"]),
        ("ncu profile, weighted, no cap", PROFILE,
         "the shared-memory pipe and the mask's loads (long scoreboard) at half occupancy",
         NCU_COUNTS, ncu_counts("weighted"), ["gpu", "ncu"]),
        ("ncu profile, alpha, no cap", PROFILE,
         "as GIMP's six (the same kernel): instruction issue at half occupancy",
         NCU_COUNTS, ncu_counts("alpha"), ["gpu", "ncu"]),
        ("whole engine call, page-locked input", "a plain page-locked copy of the image (of it)",
         "PCIe host-to-device copy", BENCH, host_row("pinned"), ["gpu"]),
        ("whole engine call, pageable input", "a pageable copy + the kernel, in series (it / ours)",
         "the host's cores staging into page-locked buffers", BENCH, host_row("pageable"),
         ["gpu"]),
        ("GPU start-up, first engine / another", "(ms, absolute)",
         "CUDA context and buffers", BENCH, startup_row, ["gpu"]),
        ("CLAHE whole call on the GPU, pageable", "OpenCV's CPU CLAHE on all 16 threads (it / ours)",
         "the copy into page-locked memory (75-85 % at 12 MP gray)", CLAHE16,
         clahe_gpu("pageable"), ["gpu", "cv2"]),
        ("CLAHE whole call on the GPU, page-locked", "OpenCV's CPU CLAHE on all 16 threads (it / ours)",
         "transfers in and out (overlapped)", CLAHE16, clahe_gpu("locked"), ["gpu", "cv2"]),
        ("CLAHE kernels, gray 12 MP", "the image's read + write at 2.9 TB/s (ours / it)",
         "9 launches at ~3 us each (27 us), the interpolation's float operations",
         NCU % "gray.pgm", ncu_clahe(12e6), ["gpu", "ncu", "clahe-files"]),
        ("CLAHE kernels, RGB 12 MP", "the image's read + write at 2.9 TB/s (ours / it)",
         "the interpolation's float operations (bound by instruction issue)",
         NCU % "rgb.ppm", ncu_clahe(36e6), ["gpu", "ncu", "clahe-files"]),
        ("CLI, 100 files of 12 MP in one process, auto", "the same with --backend cpu (ours / it)",
         "decoding the files (about half); AUTO keeps a single file on the CPU", "bash bench/whole_call.sh",
         whole_batch, ["gpu"]),
        ("CLI, 1000 JPEGs of 12 MP equalized, --decoder gpu",
         "the CLI's CPU path on 16 cores, --decoder cpu --backend cpu (it / ours)",
         "writing the results whole (321 photos/s alone) and the GPU's start (0.97 s of 4.50 s)",
         PHOTOS_STAGES, photo_ratio("gpu"), ["gpu", "cv2"]),
        ("CLI, 1000 JPEGs of 12 MP equalized, --decoder gpu, against OpenCV",
         "imread, equalizeHist of each channel, imwrite, a process a core (it / ours)",
         "as above", PHOTOS_STAGES, photo_ratio("gpu", "opencv"), ["gpu", "cv2"]),
        ("CLI, 1000 JPEGs of 12 MP equalized, --decoder gpu, against ImageMagick",
         "mogrify -equalize -quality 90, a process a core (it / ours)",
         "as above", PHOTOS_STAGES, photo_ratio("gpu", "mogrify"), ["gpu", "cv2", "mogrify"]),
        ("CLI, 1000 JPEGs of 12 MP, CLAHE, --decoder gpu",
         "the CLI's CPU path on 16 cores, --decoder cpu --backend cpu (it / ours)",
         "writing the results whole (366 photos/s alone) and the GPU's start (0.93 s of 4.52 s)",
         PHOTOS_STAGES, photo_ratio("gpu", op="clahe"), ["gpu", "cv2"]),
        ("CLI, 1000 JPEGs of 12 MP, CLAHE, --decoder gpu, against OpenCV",
         "imread, createCLAHE (2, 8 x 8) of Lab's L, imwrite, a process a core (it / ours)",
         "as above", PHOTOS_STAGES, photo_ratio("gpu", "opencv", "clahe"), ["gpu", "cv2"]),
        ("CLI, 1000 JPEGs of 12 MP, match, --decoder gpu",
         "the CLI's CPU path on 16 cores, --decoder cpu --backend cpu (it / ours)",
         "writing the results whole and the GPU's start (0.98 s of 4.84 s)",
         PHOTOS_STAGES, photo_ratio("gpu", op="match"), ["gpu", "cv2"]),
        ("CLI, 1000 JPEGs of 12 MP equalized, the whole run against its slowest stage alone",
         "photo-stages: each stage alone, one after another (of it)",
         "the GPU's start, a profile of it: the driver and device 0.30 s, nvJPEG's handle 0.28 s, "
         "the hardware decoder's state 0.35-0.40 s (0.93-0.97 s of 4.5 s); then the writes",
         PHOTOS_STAGES, photo_overlap("equalize"), ["gpu", "cv2"]),
        ("CLI, 1000 JPEGs of 12 MP, CLAHE, the whole run against its slowest stage alone",
         "photo-stages: each stage alone, one after another (of it)",
         "the GPU's start (as above), then the writes",
         PHOTOS_STAGES, photo_overlap("clahe"), ["gpu", "cv2"]),
        ("nvJPEG's decoding against libjpeg's, 8 of the 12 MP photos",
         "libjpeg-turbo's decoding (OpenCV's), absolute difference in levels",
         "4:2:0 chroma upsampling (4:4:4 and gray JPEGs decode identically: tests/photo_gpu.py)",
         PHOTOS_STAGES, photo_decoders, ["gpu", "cv2"]),
    ],
    "cpu16": [
        ("CPU counts, GIMP's six channels, level", "the fastest input (slowest / fastest)",
         "a shared VM's spells (best of rounds)", BENCH, cpu_level_row, ["photo"]),
        ("CPU counts against OpenCV's six histograms",
         "OpenCV's six (calcHist + transform), 1 thread (it / ours)",
         "counter read-modify-writes", "python3 bench/cpu_vs_opencv.py "
         "{build}/bench/gpu-histogram-bench 32", opencv_six, ["cv2"]),
        ("CPU CLAHE, 1 thread", "OpenCV's createCLAHE, 1 thread (ours / it)",
         "the tile counts (one load-add-store a sample)",
         "python3 bench/clahe_vs_opencv.py {build}/bench/gpu-histogram-bench "
         "testimages/astronaut.png 5 --threads 1,16 --rounds 3", clahe_cpu(1), ["cv2"]),
        ("CPU CLAHE, 16 threads", "OpenCV's createCLAHE, 16 threads (ours / it)",
         "the tile counts; gray's strips too few for 16 threads",
         "python3 bench/clahe_vs_opencv.py {build}/bench/gpu-histogram-bench "
         "testimages/astronaut.png 5 --threads 1,16 --rounds 3", clahe_cpu(16), ["cv2"]),
        ("CLI, a folder of 50 JPEGs, equalized, all cores", "mogrify -equalize, ImageMagick 6 (ours / it)",
         "libjpeg's encoder", "python3 bench/folder_photos.py /tmp/b/gpu-histogram-cli - "
         "--count 50 --photos /tmp/photos50", folder_cli("cli"), ["mogrify", "cv2"]),
        ("CLI, the same, --threads 1", "mogrify -equalize, ImageMagick 6 (ours / it)",
         "libjpeg's encoder", "python3 bench/folder_photos.py /tmp/b/gpu-histogram-cli - "
         "--count 50 --photos /tmp/photos50", folder_cli("cli-1"), ["mogrify", "cv2"]),
    ],
    "dev": [
        ("CPU counts against OpenCV's six histograms", "OpenCV's six (calcHist + transform), 1 thread (it / ours)",
         "counter read-modify-writes (about one a cycle)",
         "/usr/bin/python3 bench/cpu_vs_opencv.py {build}/bench/gpu-histogram-bench 32",
         opencv_six, ["cv2"]),
        ("CPU counts, GIMP's six channels, level", "the fastest input (slowest / fastest)",
         "the VM's spells (best of rounds)",
         "/usr/bin/python3 bench/cpu_vs_opencv.py {build}/bench/gpu-histogram-bench 32",
         cpu_level_row, ["cv2"]),
        ("CPU CLAHE, 1 and 2 threads", "OpenCV's createCLAHE, same threads (ours / it)",
         "the tile counts, half of gray's time",
         "/usr/bin/python3 bench/clahe_vs_opencv.py {build}/bench/gpu-histogram-bench "
         "testimages/chelsea.png 3 --threads 1,2 --rounds 3",
         lambda out: clahe_cpu(1)(out) + " (1 thread); " + clahe_cpu(2)(out) + " (2 threads)", ["cv2"]),
        ("CLI CLAHE call, 12 MP PGM and PPM", "OpenCV's createCLAHE apply alone, in memory, 2 threads (ours / it)",
         "the statistics' count (RGB: six channels) and the commit's fsyncs around CLAHE",
         CLAHE_CLI, clahe_cli("apply"), ["cv2"]),
        ("CLI CLAHE call, file to file", "OpenCV's imread, apply and imwrite in one process (ours / it)",
         "the statistics' count and the commit's fsyncs (OpenCV's imwrite syncs nothing); PNG: GEGL's codec",
         CLAHE_CLI, clahe_cli("file", ("gray-pgm", "rgb-ppm", "gray-png")), ["cv2"]),
        ("CLI CLAHE call less the engine's CLAHE, against the strip path",
         "the CLI's --equalize of the same file, its apply included (ours / it)",
         "the whole read beside the strips' (decode column)",
         CLAHE_CLI, clahe_cli("equalize", ("gray-pgm", "rgb-ppm", "gray-png")), ["cv2"]),
        ("GIMP 2.10 histogram call, 1 MP", "GIMP's five gimp-drawable-histogram calls (ours / it)",
         "libgimp 2.10's tile round trips", CALLS, call_ratio("gimp2", "histogram", "1MP"),
         ["gimp2", "gimp3"]),
        ("GIMP 2.10 histogram call, 1x1", "GIMP's five calls, at least 5 ms (ours / it)",
         "the result's 1578 doubles crossing twice (2 ms)", CALLS,
         call_ratio("gimp2", "histogram", "1x1"), ["gimp2", "gimp3"]),
        ("GIMP 2.10 histogram call, 25.6 MP", "GIMP's five gimp-drawable-histogram calls (ours / it)",
         "libgimp 2.10's tile round trips (a 64 x 64 tile each)",
         BIN2 % ("25.6MP", 5, "histogram"), call_ratio("gimp2", "histogram", "25.6MP"),
         ["gimp2"]),
        ("GIMP 3.0 histogram call, 1 MP", "GIMP's five gimp-drawable-histogram calls (ours / it)",
         "round trips to GIMP", CALLS, call_ratio("gimp3", "histogram", "1MP"),
         ["gimp2", "gimp3"]),
        ("GIMP 3.0 equalize, pixel path, 1 MP", "gimp-drawable-equalize (ours / it)",
         "pixels to the plug-in and back", CALLS, call_ratio("gimp3", "equalize", "1MP"),
         ["gimp2", "gimp3"]),
        ("GIMP 3.0 binarize, 1 MP", "gimp-drawable-threshold (ours / it)",
         "round trips asking whether GIMP's filter can serve it", CALLS,
         call_ratio("gimp3", "binarize", "1MP"), ["gimp2", "gimp3"]),
        ("GIMP 2.10 equalize, 1 MP", "gimp-drawable-equalize (ours / it)",
         "libgimp 2.10's tile protocol (a round trip a 64 x 64 tile)", CALLS2,
         call_ratio("gimp2", "equalize", "1MP"), ["gimp2"]),
        ("GIMP 2.10 equalize, 25.6 MP", "gimp-drawable-equalize (ours / it)",
         "the tile protocol, two passes (count, apply)", CALLS2,
         call_ratio("gimp2", "equalize", "25.6MP"), ["gimp2"]),
        ("GIMP 2.10 binarize at a level, 1 MP", "gimp-drawable-threshold (ours - it)",
         "GIMP's own threshold plus the call's round trips", BIN2 % ("1MP", 20, "equalize,binarize"),
         call_diff("gimp2", "binarize", "1MP"), ["gimp2"]),
        ("GIMP 2.10 binarize at a level, 25.6 MP", "gimp-drawable-threshold (ours - it)",
         "GIMP's own threshold", BIN2 % ("25.6MP", 5, "binarize"),
         call_diff("gimp2", "binarize", "25.6MP"), ["gimp2"]),
        ("equalize as three curves (not used)", "gimp-drawable-equalize (three curves / it)",
         "a full GIMP pass a channel",
         "gimp-console-2.10 -i -d -f -b - < bench/curves_vs_equalize.scm", curves, ["gimp2"]),
        ("GEGL filter gpu-histogram:equalize, merged", "gimp-drawable-equalize (ours / it)",
         "GIMP's render and merge of the filter", GEGL,
         gegl_call("gpu-histogram:equalize, merged"), ["gimp3"]),
        ("GEGL filter, a property changed (re-render)", "gimp-drawable-equalize (ours / it)",
         "GIMP's render and merge of the filter", GEGL,
         gegl_call("the same, live, a property changed, merged"), ["gimp3"]),
        ("equalize procedure through the GEGL module", "gimp-drawable-equalize (ours / it)",
         "GIMP's merge plus the call's round trips", GEGL,
         gegl_call("the same through the module"), ["gimp3"]),
        ("GEGL filter gpu-histogram:clahe, merged", "gimp-drawable-equalize (ours / it)",
         "the interpolation in GIMP's render", GEGL, gegl_call("gpu-histogram:clahe, merged"),
         ["gimp3"]),
        ("GEGL equalize's extra memory, 100 MP u8", "gimp-drawable-equalize's extra memory (ours / it)",
         "one copy of the layer (the merged pixels)", GEGL_MEM,
         gegl_memory("filter-equalize", "gimp-equalize"), ["gimp3"]),
        ("GEGL equalize's extra memory, 100 MP u16", "gimp-drawable-equalize's extra memory (ours / it)",
         "one copy of the layer (the merged pixels)", GEGL_MEM,
         gegl_memory("filter-equalize-u16", "gimp-equalize-u16"), ["gimp3"]),
        ("live filters, a parameter changed, 1024 x 768 at 100 %", "GIMP's own Threshold (ours / it)",
         "GIMP's render of the view", LIVE, live_filters("1:1", "gimp:threshold"), ["gimp3"]),
        ("the same against GIMP's Levels", "GIMP's own Levels (ours / it)",
         "GIMP's render of the view", LIVE, live_filters("1:1", "gimp:levels"), ["gimp3"]),
        ("live filters, a parameter changed, whole 12 MP at full size", "GIMP's own Threshold (ours / it)",
         "the luminance move (equalize's luminance mode, CLAHE's default), 4.8 ns a pixel; each tile on one thread", LIVE,
         live_filters("whole", "gimp:threshold"), ["gimp3"]),
        ("the same against GIMP's Levels", "GIMP's own Levels (ours / it)",
         "the luminance move (equalize's luminance mode, CLAHE's default), 4.8 ns a pixel; each tile on one thread", LIVE,
         live_filters("whole", "gimp:levels"), ["gimp3"]),
        ("live filters in GIMP's GUI, a parameter changed, 12 MP fitted to a 1366 x 768 screen, until GIMP is quiet",
         "GIMP's own Threshold (ours / it)",
         "GIMP's render of the whole layer at full size: GEGL's brightness-contrast takes 0.77-0.79x", LIVE_CANVAS,
         live_filters("canvas", "gimp:threshold"), ["gimp3"]),
        ("the same in GIMP's GUI against its Levels", "GIMP's own Levels (ours / it)",
         "GIMP's render of the whole layer at full size", LIVE_CANVAS,
         live_filters("canvas", "gimp:levels"), ["gimp3"]),
        ("GIMP 3 batch of 20 JPEGs, no table", "GIMP's Script-Fu loop of gimp-drawable-equalize (ours / it)",
         "GIMP's own load and save (next row)", FOLDER3,
         folder_ratio("plugin-no-table", "gimp-equalize"), ["gimp3", "cv2"]),
        ("GIMP 3 load and save alone (the floor)",
         "GIMP's Script-Fu loop of gimp-drawable-equalize (load + save / it)", "GIMP's JPEG load and save",
         FOLDER3, folder_ratio("gimp-load-save", "gimp-equalize"), ["gimp3", "cv2"]),
        ("GIMP 2.10 batch of 20 JPEGs", "GIMP 2.10's Script-Fu loop (ours / it)",
         "GIMP 2.10's own load and save, 0.75-0.86x alone", FOLDER2,
         folder_ratio("plugin-batch", "gimp-equalize", ("GIMP 2.10",)),
         ["gimp2", "gimp3", "cv2"]),
        ("CLI, 20 JPEGs equalized, 2 workers", "mogrify -equalize, ImageMagick 6 (ours / it)",
         "libjpeg's encoder", FOLDER3, folder_cli("cli"), ["gimp3", "mogrify", "cv2"]),
    ],
}


# ---------------------------------------------------------------- run
def command(cmd, build):
    return cmd.replace("{build}", build)


def python_of(cmd):
    m = re.search(r"(?:^|\s)(/usr/bin/python3|python3)\s", cmd)
    return m.group(1) if m else "python3"


def cannot(cmd, needs, build):
    """Why this machine cannot run CMD, or None."""
    if "gpu" in needs and subprocess.run("nvidia-smi -L", shell=True,
                                         capture_output=True).returncode:
        return "no GPU here (nvidia-smi): run it on the GPU host, STAGES=tables bash bench/device-run.sh"
    if "ncu" in needs and not shutil.which("ncu"):
        return "no ncu here"
    if "gimp2" in needs and not shutil.which("gimp-console-2.10"):
        return "no gimp-console-2.10 here"
    if "gimp3" in needs and not (ROOT / "scripts/gimp3-env.sh").exists():
        return "no scripts/gimp3-env.sh (GIMP 3's root)"
    if "mogrify" in needs and not shutil.which("mogrify") and not Path("/tmp/b/mogrify").exists():
        return "no mogrify (ImageMagick) here; on the GPU host: bench/host_bundle.sh"
    if "cv2" in needs and subprocess.run([python_of(cmd), "-c", "import cv2"],
                                         capture_output=True).returncode:
        return f"{python_of(cmd)} has no cv2 (OpenCV)"
    for tok in cmd.split():
        if tok.startswith("/tmp/b/") and not Path(tok).exists():
            return f"{tok} is not unpacked here (bash bench/host_bundle.sh CLI OUT.tar.xz on Debian)"
        if tok.startswith(build + "/") and not (ROOT / tok).exists():
            return f"{tok} is not built here"
    return None


def prepare(needs):
    """The inputs device-run.sh makes: the photo and CLAHE's 12 MP files."""
    if "photo" in needs or "gpu" in needs:
        if not Path(PHOTO).exists():
            import cv2
            im = cv2.cvtColor(cv2.imread(str(ROOT / "testimages/astronaut.png")), cv2.COLOR_BGR2RGB)
            h, w, _ = im.shape
            Path(PHOTO).write_bytes(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 3\nMAXVAL 255\n"
                                    b"TUPLTYPE RGB\nENDHDR\n" % (w, h) + im.tobytes())
    if "clahe-files" in needs and not Path("/tmp/clahe-gray.pgm").exists():
        import cv2
        rgb = cv2.resize(cv2.imread(str(ROOT / "testimages/astronaut.png"))[..., ::-1],
                         (4000, 3000), interpolation=cv2.INTER_CUBIC).copy()
        gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        Path("/tmp/clahe-gray.pgm").write_bytes(b"P5\n4000 3000\n255\n" + gray.tobytes())
        Path("/tmp/clahe-rgb.ppm").write_bytes(b"P6\n4000 3000\n255\n" + rgb.tobytes())


HEADER = ("| what | ratio | anchor | bound | machine | date | command |\n"
          "|---|---|---|---|---|---|---|")


def md_row(what, ratio, anchor, bound, machine, date, cmd):
    return f"| {what} | {ratio} | {anchor} | {bound} | {machine} | {date} | `{cmd}` |"


def run(cls, build, only):
    today = time.strftime("%Y-%m-%d", time.gmtime())
    machine = CLASSES[cls]
    if cls == "gpu":
        name = subprocess.run("nvidia-smi --query-gpu=name --format=csv,noheader",
                              shell=True, capture_output=True, text=True).stdout.strip()
        machine += f", {name.splitlines()[0]}" if name else ""
    outputs, skipped, failed = {}, [], 0
    print(f"`bench/tables.py run {cls}`\n\n{HEADER}", flush=True)
    for what, anchor, bound, cmd, parse, needs in ROWS[cls]:
        if only and not re.search(only, what):
            continue
        c = command(cmd, build)
        why = cannot(c, needs, build)
        if why:
            skipped.append(f"not run here: {what}: {why}")
            continue
        if c not in outputs:
            prepare(needs)
            print(f"running: {c}", file=sys.stderr, flush=True)
            p = subprocess.run(c, shell=True, cwd=ROOT, capture_output=True, text=True,
                               executable="/bin/bash")
            outputs[c] = (p.returncode, p.stdout + p.stderr)
        rc, out = outputs[c]
        try:
            ratio = parse(out)
        except (ValueError, KeyError, IndexError) as e:
            ratio = f"failed (exit {rc}: {e})"
            failed += 1
            print(out[-3000:], file=sys.stderr)
        print(md_row(what, ratio, anchor, bound, machine, today, c), flush=True)
    if skipped:
        print()
    for s in skipped:
        print(s)
    return 1 if failed else 0


# ---------------------------------------------------------------- check
def check(path):
    text = Path(path).read_text().splitlines()
    errors = []
    if len(text) > MAX_LINES:
        errors.append(f"{path}: {len(text)} lines, more than {MAX_LINES}")
    whats = {cls: {r[0]: command(r[3], DEFAULT_BUILD[cls]) for r in rows}
             for cls, rows in ROWS.items()}
    cls, in_table, header = None, False, None
    for n, line in enumerate(text, 1):
        m = re.match(r"`bench/tables\.py run (\w+)`", line)
        if m:
            cls = m.group(1) if m.group(1) in CLASSES else None
            if cls is None:
                errors.append(f"{path}:{n}: unknown class {m.group(1)}")
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not in_table:
            in_table, header = True, cells
            if cls is None:
                errors.append(f"{path}:{n}: a table with no `bench/tables.py run CLASS` line before it")
            continue
        if set(line) <= set("|-: "):
            continue
        name = f"{path}:{n}: row '{cells[0]}'"
        row = dict(zip(header, cells))
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", row.get("date", "")):
            errors.append(f"{name}: no date (YYYY-MM-DD)")
        if cls and not row.get("machine", "").startswith(CLASSES[cls]):
            errors.append(f"{name}: machine is not '{CLASSES.get(cls)}...'")
        cmd = row.get("command", "").strip("`")
        names = re.findall(r"(?<![\w/.-])bench/[\w.-]+", cmd)
        ok = any((ROOT / s).exists() for s in names) or any(p in cmd for p in PROGRAMS)
        if not ok:
            errors.append(f"{name}: its command names no bench/ script or built program")
        for s in names:
            if not (ROOT / s).exists():
                errors.append(f"{name}: {s} does not exist")
        if cls and whats[cls].get(cells[0]) != cmd:
            errors.append(f"{name}: not a row of bench/tables.py's {cls} data with this command"
                          f" (tables.py has: {whats[cls].get(cells[0])})")
    for e in errors:
        print(e)
    if not errors:
        print(f"{path}: {len(text)} lines, every table row dated, classed and reproducible")
    return 1 if errors else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "check":
        return check(argv[1])
    if len(argv) >= 2 and argv[0] == "run" and argv[1] in CLASSES:
        opts = dict(zip(argv[2::2], argv[3::2]))
        build = opts.get("--build", DEFAULT_BUILD[argv[1]]).rstrip("/")
        return run(argv[1], build, opts.get("--only"))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
