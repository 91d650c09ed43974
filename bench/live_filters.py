#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How fast a live filter answers a parameter's change, as a user sees it:
from the new value to the canvas settled, for each live filter of the GEGL
module beside GIMP's own Threshold and Levels on the same 12 MP layer.

  bench/live_filters.py BUILD-IN-ROOT [--gimp 3.0,3.2] [--repeat N]

BUILD-IN-ROOT is a nested build of a GIMP 3 root (build/gimp3-env or
build/gimp32-env: its gegl/gpu-histogram-gegl.so, put into the user's GEGL
folder of a fresh profile).  In gimp-console-3 (scripts/gimp3-env.sh),
Python-Fu loads testimages/astronaut.png scaled to 4000 x 3000 (12 MP,
RGB) and, for each filter in turn, on the one layer:

  1. makes it a live filter (Gimp.DrawableFilter.new, its first value,
     update, append_filter) and settles the canvas once (the first render
     counts the histogram: not timed);
  2. then N times for each of two views, timed: the parameter set to its
     other value, the filter's update (what GIMP's dialog does when a
     slider moves), and the view read back, which returns only when GIMP
     has rendered it with the filter:
       1:1    a 1024 x 768 canvas at 100 % zoom: that part of the layer
              with its filters (gimp-drawable-sub-thumbnail at full size);
       whole  the whole image's projection as a 1024 x 768 thumbnail
              (gimp-image-thumbnail): GIMP 3.2 and 3.0 render it from the
              full-size projection, all 12 MP in 128 x 128 tiles at
              mipmap level 0, more than a canvas at any zoom re-renders;
  3. removes the filter.

With no display GIMP renders nothing until pixels are asked for, so the
time from the value's change to the read returning is the re-render a
canvas waits for, plus two PDB calls of a few ms (the same for GIMP's own
filters).  Each change is checked to have changed the view (else the
measure is void).  Prints the median of N per filter and view, in ms, and
its ratio to GIMP's own Threshold in the same view.

  bench/live_filters.py BUILD-IN-ROOT --canvas [--gimp ...] [--repeat N]

times what a user sees instead: GIMP 3's GUI (gimp-3) on a 1366 x 768
Xvfb screen, a fresh profile with GIMP's defaults (the Layers dock's
previews on), the image in a window fitted to it; each filter made live
and settled as above, then N times its parameter set to the other value,
the filter's update and the displays flushed (what a slider's move
does), timed until GIMP is quiet again: the sum of its threads' time on
the CPU (/proc/PID/task/*/schedstat, read every 2 ms) growing by less
than a quarter of a core over 0.25 s; the time is to the last busy read,
and the CPU time GIMP spent meanwhile is printed beside it.  A render
GIMP does at idle (the canvas, the layer's preview) counts; GEGL's
brightness-contrast, which costs almost nothing a pixel, shows GIMP's
floor.  Each change is checked as above, on a part of the layer read
back once GIMP is quiet (not timed).

  gegl:b-c            GEGL's brightness-contrast, brightness 0 <> 0.1
  gimp:threshold      GIMP's Colors > Threshold, its low level 0.35 <> 0.6
  gimp:levels         GIMP's Colors > Levels, its gamma 0.8 <> 1.25 (not
                      in GIMP 3.0.4, which crashes when a script asks a
                      gimp:levels filter for its config)
  threshold           gpu-histogram:threshold, level 90 <> 160
  equalize            gpu-histogram:equalize, luminance <> each-channel
  clahe-clip          gpu-histogram:clahe, clip limit 3 <> 2
  clahe-mode          gpu-histogram:clahe, each-channel <> luminance
  posterize           gpu-histogram:posterize, classes 4 <> 3
"""
import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What both scripts begin with: the 12 MP layer and each filter live on it
# in turn (GIMP's own first), its parameter at its first value.
COMMON = r'''
import os, time
from gi.repository import Gimp, Gio
img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(os.environ["GH_IMAGE"]))
img.scale(4000, 3000)
img.undo_disable()
layer = img.get_layers()[0]
out = open(os.environ["GH_REPORT"], "w")
FILTERS = [  # (row, operation, property, first value, the other)
    ("gegl:b-c", "gegl:brightness-contrast", "brightness", 0.0, 0.1),
    ("gimp:threshold", "gimp:threshold", "low", 0.35, 0.6),
    ("gimp:levels", "gimp:levels", "gamma", 0.8, 1.25),
    ("threshold", "gpu-histogram:threshold", "threshold", 90, 160),
    ("equalize", "gpu-histogram:equalize", "mode", "luminance", "each-channel"),
    ("clahe-clip", "gpu-histogram:clahe", "clip-limit", 3.0, 2.0),
    ("clahe-mode", "gpu-histogram:clahe", "mode", "each-channel", "luminance"),
    ("posterize", "gpu-histogram:posterize", "classes", 4, 3),
]

def pixels(r):
    return bytes(r[0].get_data() if hasattr(r[0], "get_data") else r[0])

def filters():
    # (row, filter, config, property, first, other), each removed after.
    for name, op, prop, first, other in FILTERS:
        if name in os.environ["GH_SKIP"].split(","):
            continue
        f = Gimp.DrawableFilter.new(layer, op, name)
        cfg = f.get_config()
        cfg.set_property(prop, first)
        f.update()
        layer.append_filter(f)
        yield name, f, cfg, prop, first, other
        f.delete()
'''

SCRIPT = COMMON + r'''
VIEWS = {"1:1": lambda: pixels(layer.get_sub_thumbnail_data(1500, 1100, 1024, 768, 1024, 768)),
         "whole": lambda: pixels(img.get_thumbnail_data(1024, 768))}
for view in VIEWS.values():
    view()
for name, f, cfg, prop, first, other in filters():
    value = first
    for where, view in VIEWS.items():
        before = view()
        for k in range(int(os.environ["GH_REPEAT"])):
            value = other if value == first else first
            t = time.perf_counter()
            cfg.set_property(prop, value)
            f.update()
            now = view()
            dt = time.perf_counter() - t
            out.write("%s %s %.6f %d\n" % (name, where, dt, int(now != before)))
            out.flush()
            before = now
out.close()
img.delete()
'''

CANVAS_SCRIPT = COMMON + r'''
import itertools
gimp = os.getppid()

TASKS = {}  # GIMP's threads: their schedstat files, kept open
READS = itertools.count()

def cpu():
    # GIMP's threads' time on the CPU so far, ns.  Read every 2 ms, so
    # cheaply (opening each thread's file every time took about 1/8 of a
    # core from GIMP's two): new threads looked for every 50th read.
    if next(READS) % 50 == 0:
        for tid in os.listdir("/proc/%d/task" % gimp):
            if tid not in TASKS:
                try:
                    TASKS[tid] = os.open("/proc/%d/task/%s/schedstat" % (gimp, tid), os.O_RDONLY)
                except OSError:
                    pass  # a thread that ended meanwhile
    t = 0
    for tid, fd in list(TASKS.items()):
        try:
            t += int(os.pread(fd, 64, 0).split()[0])
        except (OSError, ValueError, IndexError):
            os.close(fd)  # a thread that ended
            del TASKS[tid]
    return t

def settle(t0, quiet=0.25, poll=0.002, most=30.0):
    # Seconds from t0 to GIMP's last busy read, once quiet for `quiet` s;
    # GIMP busy for `most` s ends the run (its report falls short).
    last = t0
    before, then = cpu(), time.perf_counter()
    while True:
        time.sleep(poll)
        now_cpu, now = cpu(), time.perf_counter()
        if now_cpu - before > 0.25e9 * (now - then):
            last = now
        before, then = now_cpu, now
        if now - last > quiet:
            return last - t0
        if now - t0 > most:
            raise RuntimeError("GIMP was still busy %.0f s after a change" % most)

def view():
    return pixels(layer.get_sub_thumbnail_data(1500, 1100, 256, 192, 256, 192))

Gimp.Display.new(img)
Gimp.displays_flush()
settle(time.perf_counter(), quiet=1.0)
for name, f, cfg, prop, first, other in filters():
    # The last filter's removal and this one's first render.
    Gimp.displays_flush()
    settle(time.perf_counter(), quiet=0.5)
    before = view()
    value = first
    for k in range(int(os.environ["GH_REPEAT"])):
        value = other if value == first else first
        t, c = time.perf_counter(), cpu()
        cfg.set_property(prop, value)
        f.update()
        Gimp.displays_flush()
        dt = settle(t)
        used = (cpu() - c) / 1e9
        now = view()
        out.write("%s canvas %.6f %d %.6f\n" % (name, dt, int(now != before), used))
        out.flush()
        before = now
out.close()
'''

ROWS = ["gegl:b-c", "gimp:threshold", "gimp:levels", "threshold", "equalize", "clahe-clip",
        "clahe-mode", "posterize"]
# What each GIMP cannot run (see above).
SKIP = {"3.0": ["gimp:levels"]}


def gimp_run(build, version, repeat, rows_run, canvas):
    """One GIMP run of `rows_run`: gimp-console-3 with SCRIPT, or with
    `canvas` gimp-3 with CANVAS_SCRIPT; {(filter, view): [(seconds, CPU
    seconds or None)]}, or None."""
    views = ("canvas",) if canvas else ("1:1", "whole")
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        tmp = Path(tmp)
        folder = tmp / "data" / "gegl-0.4" / "plug-ins"
        folder.mkdir(parents=True)
        shutil.copy(build / "gegl" / "gpu-histogram-gegl.so", folder)
        for sub in ("home", "config", "cache", "profile"):
            (tmp / sub).mkdir()
        env = dict(os.environ, GH_GIMP3=version, XDG_DATA_HOME=str(tmp / "data"),
                   HOME=str(tmp / "home"), XDG_CONFIG_HOME=str(tmp / "config"),
                   XDG_CACHE_HOME=str(tmp / "cache"),
                   GIMP3_DIRECTORY=str(tmp / "profile"), GH_REPEAT=str(repeat),
                   GH_IMAGE=str(ROOT / "testimages" / "astronaut.png"),
                   GH_REPORT=str(tmp / "report"),
                   GH_SKIP=",".join(SKIP.get(version, [])))
        env.pop("GEGL_PATH", None)
        if canvas:
            # The first start's welcome dialog would take the focus; GIMP
            # with a D-Bus of its own (doc: gimp3.md section 8).
            (tmp / "profile" / "gimprc").write_text("(show-welcome-dialog no)\n")
            env["NO_AT_BRIDGE"] = "1"
            gimp = ["dbus-run-session", "--", "gimp-3", "-n", "-s", "-d", "-f"]
            script = CANVAS_SCRIPT
        else:
            gimp = ["gimp-console-3", "-i"]
            script = SCRIPT
        # GIMP and what it starts share a process group, inside the root too.
        p = subprocess.Popen(["bash", str(ROOT / "scripts" / "gimp3-env.sh"), "run"] + gimp
                             + ["--batch-interpreter=python-fu-eval", "-b", "-", "--quit"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env,
                             start_new_session=True)
        try:
            stdout, stderr = p.communicate(script, timeout=300 + 30 * repeat * len(rows_run))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            stdout, stderr = p.communicate()
            stderr += "\n(stopped: past its time)"
        report = (tmp / "report").read_text().splitlines() if (tmp / "report").exists() else []
        if len(report) != len(views) * repeat * len(rows_run):
            print(f"GIMP {version}: {gimp[-5 if canvas else 0]} stopped: "
                  f"{stdout[-1000:]}{stderr[-2000:]}")
            return None
        rows = {}
        for line in report:
            name, where, s, changed, *cpu = line.split()
            if changed != "1":
                print(f"GIMP {version}: {name} ({where}): the view did not change: "
                      "not measured")
                return None
            rows.setdefault((name, where), []).append(
                (float(s), float(cpu[0]) if cpu else None))
        return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--gimp", default="3.0,3.2")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--canvas", action="store_true",
                    help="GIMP's GUI on Xvfb, until GIMP is quiet")
    a = ap.parse_args()
    if a.canvas and not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            print("live_filters: --canvas needs xvfb-run (apt-get install xvfb)")
            return 2
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1366x768x24",
                               sys.executable] + sys.argv)
    build = Path(a.build).resolve()
    for version in a.gimp.split(","):
        rows_run = [r for r in ROWS if r not in SKIP.get(version, [])]
        rows = gimp_run(build, version, a.repeat, rows_run, a.canvas)
        if rows is None:
            return 1
        if a.canvas:
            print(f"GIMP {version}'s GUI, 4000 x 3000 RGB fitted to a 1366 x 768 "
                  f"screen, a parameter's change until GIMP is quiet, ms (median of "
                  f"{a.repeat}), / GIMP's own Threshold, GIMP's CPU time (median):")
        else:
            print(f"GIMP {version}, 4000 x 3000 RGB, a parameter's change to the view "
                  f"settled, ms (median of {a.repeat}), and / GIMP's own Threshold:")
        for where in ("canvas",) if a.canvas else ("1:1", "whole"):
            gimp = statistics.median(s for s, _ in rows[("gimp:threshold", where)])
            print(f" view {where}")
            for name in rows_run:
                times = [s for s, _ in rows[(name, where)]]
                s = statistics.median(times)
                cpu = [c for _, c in rows[(name, where)] if c is not None]
                print(f"  {name:16s} {s * 1e3:8.1f}  {s / gimp:5.2f}  "
                      + (f"cpu {statistics.median(cpu) * 1e3:6.1f}  " if cpu else "")
                      + f"{[round(x * 1e3) for x in times]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
