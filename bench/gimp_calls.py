#!/usr/bin/python3
"""Whole-call cost in GIMP (issue 14, target 1): the plug-in's calls against
GIMP's own on 1x1, 1 MP and 25.6 MP RGB images, in gimp-console 2.10 and 3.

  histogram: one plug-in-gpu-histogram call against GIMP's five
             gimp-drawable-histogram calls (value, red, green, blue,
             luminance);
  equalize:  plug-in-gpu-histogram-equalize (each channel) against
             gimp-drawable-equalize;
  binarize:  plug-in-gpu-histogram-binarize (value, level 127) against
             gimp-drawable-threshold (value, 0.5 .. 1).

The plug-in's calls are timed twice: served by its resident process (the
default: plugin/gimp*/resident.h) and, with GPU_HISTOGRAM_RESIDENT=0, each in a
new process as without it.  A call's cost is (session with N calls - session
with 1 call) / (N - 1), each session a fresh gimp-console making the image
(undo off, so six applies keep no copies) and then calling; medians of
--repeat sessions (GIMP's start-up varies by seconds on a shared machine, so
only the differences mean anything).  The resident's first call in a session
also starts GEGL and the engine: that once-per-session cost is reported
beside it as (session with 1 call - session with none).  GIMP's cost on 1x1
counts as at least 5 ms (the issue's rule).

Start-up: how long GIMP waits for the resident at its start (it starts the
extension and waits for its ack), as the time from the extension's exec to
its exit when GPU_HISTOGRAM_RESIDENT=0 makes it ack and leave (strace -f on
gimp-console; skipped without strace).

Usage: gimp_calls.py PLUGIN-GIMP2 [PLUGIN-GIMP3-IN-ENV] [--repeat N]
                     [--calls N] [--ops histogram,equalize,binarize]
                     [--sizes 1x1,1MP,25.6MP]
GIMP 3 runs through scripts/gimp3-env.sh (GH_GIMP3_ENV) as the tests do.
"""
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from plugin_gimp import GimpSession, Host  # noqa: E402

SIZES = {"1x1": (1, 1), "1MP": (1000, 1000), "25.6MP": (6400, 4000)}
OPS = ("histogram", "equalize", "binarize")
GIMP_FLOOR = 5e-3  # s: GIMP's cost on 1x1 counts as at least this


def image(w, h, body):
    # A gradient: every level present, made by GIMP itself inside the session.
    return (f"(let* ((img (car (gimp-image-new {w} {h} RGB)))"
            f" (drw (gh-new-layer img {w} {h} RGB-IMAGE \"l\")))"
            " (gimp-image-undo-disable img)"
            " (gimp-image-insert-layer img drw 0 0)"
            " (gimp-context-set-default-colors)"
            f" (gimp-drawable-edit-gradient-fill drw GRADIENT-LINEAR 0 FALSE 1 0 TRUE 0 0"
            f" {w - 1} {h - 1}) {body})")


def one_call(op, who):
    """One call of `op` by the plug-in (who != "gimp") or by GIMP."""
    if who == "gimp":
        if op == "histogram":  # both GIMPs take the range on 0..1
            return " ".join(f"(gimp-drawable-histogram drw {c} 0.0 1.0)"
                            for c in (0, 1, 2, 3, 5))
        if op == "equalize":
            return "(gimp-drawable-equalize drw FALSE)"
        return "(gimp-drawable-threshold drw HISTOGRAM-VALUE 0.5 1.0)"
    if op == "histogram":
        return "(gh-histogram RUN-NONINTERACTIVE img drw)"
    if op == "equalize":
        return "(gh-equalize RUN-NONINTERACTIVE img drw 0)"
    return "(gh-binarize RUN-NONINTERACTIVE img drw 0 127)"


def session_seconds(s, commands):
    t = time.perf_counter()
    log = s._gimp(commands)
    took = time.perf_counter() - t
    if "execution error" in log:
        raise RuntimeError(log[-1500:])
    return took


def timed(s, w, h, op, who, repeat, calls):
    """Median per call and first-call cost, with the values they came from."""
    per, first = [], []
    for _ in range(repeat):
        t = {n: session_seconds(s, [image(w, h, "(begin " + one_call(op, who) * n + ")")])
             for n in ((0, 1, calls) if who == "resident" else (1, calls))}
        per.append((t[calls] - t[1]) / (calls - 1))
        if 0 in t:
            first.append(t[1] - t[0])
    return {"per": statistics.median(per), "per_all": per,
            "first": statistics.median(first) if first else None, "first_all": first}


def startup_wait(s, repeat):
    """ms from the resident's exec to its exit with GPU_HISTOGRAM_RESIDENT=0
    (it acks at once and leaves): what GIMP's start-up waits for."""
    if not shutil.which("strace"):
        return None
    exe = str(s.profile / "plug-ins" / "gpu-histogram" / "gpu-histogram")
    s.env["GPU_HISTOGRAM_RESIDENT"] = "0"
    waits = []
    trace = s.dir / "startup.trace"
    quit_ = ["(+ 1 1)"] if s.host.gimp3 else ["(gimp-quit 0)"]
    for _ in range(repeat):
        subprocess.run(["strace", "-f", "-ttt", "-qq", "-e", "trace=execve,exit_group",
                        "-e", "signal=none", "-o", str(trace)] + s.host.argv(quit_),
                       env=s.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=400)
        start = {}
        for line in trace.read_text().splitlines():
            m = re.match(r"(\d+)\s+([\d.]+)\s+(execve|exit_group)\((.*)", line)
            if not m:
                continue
            pid, t, call, rest = m.group(1), float(m.group(2)), m.group(3), m.group(4)
            if call == "execve" and rest.startswith(f'"{exe}"'):
                start[pid] = t
            elif call == "exit_group" and pid in start:
                waits.append(t - start[pid])
                break
    del s.env["GPU_HISTOGRAM_RESIDENT"]
    return waits


def measure(plugin, host, repeat, calls, ops, sizes):
    rows = {}
    with GimpSession(plugin, host) as s:
        waits = startup_wait(s, repeat)
        if waits:
            print(f"  {host.name} start-up waits for the resident: "
                  f"{statistics.median(waits) * 1e3:.0f} ms {[round(x * 1e3) for x in waits]}",
                  flush=True)
        for op in ops:
            for name in sizes:
                w, h = SIZES[name]
                per = {}
                for who in ("gimp", "resident", "process"):
                    if who == "process" and op != "histogram":
                        continue  # a new process per call: the histogram rows show it
                    if who == "process":
                        s.env["GPU_HISTOGRAM_RESIDENT"] = "0"
                    per[who] = timed(s, w, h, op, who, repeat, calls)
                    s.env.pop("GPU_HISTOGRAM_RESIDENT", None)
                rows[(op, name)] = per
                print(f"  {host.name} {op} {name}: " + ", ".join(
                    f"{who} {r['per'] * 1e3:.0f} ms {[round(d * 1e3) for d in r['per_all']]}"
                    + (f" first {r['first'] * 1e3:.0f} ms" if r["first"] is not None else "")
                    for who, r in per.items()), flush=True)
    return rows, waits


def main():
    args = list(sys.argv[1:])
    opts = {"--repeat": "3", "--calls": "6", "--ops": ",".join(OPS),
            "--sizes": ",".join(SIZES)}
    for k in opts:
        if k in args:
            i = args.index(k)
            opts[k] = args[i + 1]
            del args[i:i + 2]
    if not args:
        raise SystemExit(__doc__)
    repeat, calls = int(opts["--repeat"]), int(opts["--calls"])
    ops = [o for o in opts["--ops"].split(",") if o]
    sizes = [z for z in opts["--sizes"].split(",") if z]
    if calls < 2 or any(o not in OPS for o in ops) or any(z not in SIZES for z in sizes):
        raise SystemExit(__doc__)
    hosts = [("gimp2", args[0])] + ([("gimp3", args[1])] if len(args) > 1 else [])
    table, starts = {}, {}
    for name, plugin in hosts:
        table[name], starts[name] = measure(plugin, Host(name), repeat, calls, ops,
                                               sizes)
    ms = lambda x: f"{x * 1e3:.0f}"  # noqa: E731
    print(f"\nms per call, (session with {calls} calls - with 1) / {calls - 1}, "
          f"median of {repeat} sessions each; ratios against GIMP (>= 5 ms)")
    print("| host | call | image | resident | new process | GIMP | resident / GIMP "
          "| new process / GIMP | resident's first call |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, rows in table.items():
        for (op, size), per in rows.items():
            g = max(per["gimp"]["per"], GIMP_FLOOR)
            r = per["resident"]
            p = per.get("process")
            cells = [name, op, size, ms(r["per"]), ms(p["per"]) if p else "-",
                     ms(per["gimp"]["per"]), f"{r['per'] / g:.2f}",
                     f"{p['per'] / g:.2f}" if p else "-", ms(r["first"])]
            print("| " + " | ".join(cells) + " |")
    for name, waits in starts.items():
        if waits:
            print(f"{name}: GIMP's start-up waits {ms(statistics.median(waits))} ms for the "
                  f"resident's ack (exec to exit, {len(waits)} starts: "
                  f"{', '.join(ms(w) for w in waits)})")


if __name__ == "__main__":
    main()
