#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Whole-call cost in GIMP: the plug-in's calls against
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
new process as without it.  Each run is a fresh gimp-console that makes the
image (undo off, so repeated applies keep no copies), makes one call, then N
more, and reads the clock (Script-Fu's gettimeofday) around them: a call's
cost is the N calls' time / N, as a script waits for it; the first call is
reported apart (the resident's starts GEGL and the engine, once per run
of GIMP).  Medians of --repeat runs.  GIMP's cost on 1x1 counts as at
least 5 ms, so that no ratio is taken against a few milliseconds' noise.

Returned (GIMP 2.10, with the histogram): what GIMP takes to return 1580
doubles to Script-Fu (its own gimp-gradient-get-uniform-samples, 395 samples
less 2; in 2.10 a sample is a few multiplications): the documented result's
1578 doubles cross twice (the plug-in to GIMP, GIMP to Script-Fu), and GIMP
2.10 reads each double with a read() of its own, so twice this is a floor no
plug-in returning that result goes under.  (GIMP 3 makes a colour object per
gradient sample, so there this would not measure the return.)

Start-up: how long GIMP waits for the resident at its start (it starts the
extension and waits for its ack), as the time from the extension's exec to
its ack's write on its pipe to GIMP (strace -f on gimp-console; skipped
without strace).

Usage: gimp_calls.py PLUGIN-GIMP2 [PLUGIN-GIMP3-IN-ENV] [--repeat N]
                     [--calls N] [--ops histogram,equalize,binarize]
                     [--sizes 1x1,1MP,25.6MP] [--who gimp,resident,process]
(--calls 50 --sizes 1x1 --who gimp,resident: the 1x1 costs to a tenth of a
millisecond, where the round trips to GIMP are the cost; GIMP's start-up
wait is measured only with the new process's calls.)
GIMP 3 runs through scripts/gimp3-env.sh (GH_GIMP3_ENV) as the tests do.
"""
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from plugin_gimp import GimpConsole, Host  # noqa: E402

SIZES = {"1x1": (1, 1), "1MP": (1000, 1000), "25.6MP": (6400, 4000)}
OPS = ("histogram", "equalize", "binarize")
WHO = ("gimp", "resident", "process")
GIMP_FLOOR = 5e-3  # s: GIMP's cost on 1x1 counts as at least this


def image(w, h, body):
    # A gradient: every level present, made by GIMP itself inside the run.
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


# The clock, as a message: "T|<label>|<seconds>|<microseconds>".
def clock(label):
    return (f"(let ((t (gettimeofday))) (gimp-message (string-append \"T|{label}|\""
            " (number->string (car t)) \"|\" (number->string (cadr t)))))")


def timed(s, w, h, call, repeat, calls):
    """Median per call and first call, with the values they came from."""
    per, first = [], []
    for _ in range(repeat):
        body = ("(begin " + clock(0) + call + clock(1) + call * calls + clock(2) + ")")
        log = s._gimp([image(w, h, body)])
        t = {int(m.group(1)): int(m.group(2)) + int(m.group(3)) * 1e-6
             for m in re.finditer(r"T\|(\d)\|(\d+)\|(\d+)", log)}
        if "execution error" in log or len(t) != 3:
            raise RuntimeError(log[-1500:])
        first.append(t[1] - t[0])
        per.append((t[2] - t[1]) / calls)
    return {"per": statistics.median(per), "per_all": per,
            "first": statistics.median(first), "first_all": first}


def startup_wait(s, repeat):
    """ms from the resident's exec to its ack (GP_EXTENSION_ACK, 4 bytes on
    its pipe to GIMP): what GIMP's start-up waits for."""
    if not shutil.which("strace"):
        return None
    exe = str(s.profile / "plug-ins" / "gpu-histogram" / "gpu-histogram")
    waits = []
    trace = s.dir / "startup.trace"
    quit_ = ["(+ 1 1)"] if s.host.gimp3 else ["(gimp-quit 0)"]
    for _ in range(repeat):
        subprocess.run(["strace", "-f", "-ttt", "-qq", "-s", "16", "-e", "trace=execve,write",
                        "-e", "signal=none", "-o", str(trace)] + s.host.argv(quit_),
                       env=s.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=400)
        start, pipe = {}, {}
        for line in trace.read_text().splitlines():
            m = re.match(r"(\d+)\s+([\d.]+)\s+(execve|write)\((.*)", line)
            if not m:
                continue
            pid, t, call, rest = m.group(1), float(m.group(2)), m.group(3), m.group(4)
            # The extension's run (not the query): -gimp [version] READ WRITE -run.
            if call == "execve" and rest.startswith(f'"{exe}"') and '"-run"' in rest:
                argv = re.findall(r'"([^"]*)"', rest.split("[", 1)[1])
                start[pid], pipe[pid] = t, argv[argv.index("-run") - 1]
            elif call == "write" and pid in start and rest.startswith(pipe[pid] + ","):
                waits.append(t - start[pid])  # its first message: the ack
                break
    return waits


def measure(plugin, host, repeat, calls, ops, sizes, whos):
    rows = {}
    digits = 1 if calls >= 20 else 0  # tenths of a ms where many calls were timed
    with GimpConsole(plugin, host) as s:
        # Start-up only in a whole run (with the new process's calls).
        waits = startup_wait(s, repeat) if "process" in whos else None
        if waits:
            print(f"  {host.name} start-up waits for the resident: "
                  f"{statistics.median(waits) * 1e3:.0f} ms {[round(x * 1e3) for x in waits]}",
                  flush=True)
        for op in ops:
            for name in sizes:
                w, h = SIZES[name]
                per = {}
                for who in whos:
                    if who == "process" and op != "histogram":
                        continue  # a new process per call: the histogram rows show it
                    if who == "process":
                        s.env["GPU_HISTOGRAM_RESIDENT"] = "0"
                    per[who] = timed(s, w, h, one_call(op, who), repeat, calls)
                    s.env.pop("GPU_HISTOGRAM_RESIDENT", None)
                rows[(op, name)] = per
                print(f"  {host.name} {op} {name}: " + ", ".join(
                    f"{who} {r['per'] * 1e3:.{digits}f} ms "
                    f"{[round(d * 1e3, digits or None) for d in r['per_all']]}"
                    + f" first {r['first'] * 1e3:.0f} ms {[round(d * 1e3) for d in r['first_all']]}"
                    for who, r in per.items()), flush=True)
        if "histogram" in ops and not host.gimp3:
            rows["returned"] = returned_cost(s, repeat, calls)
            print(f"  {host.name} 1580 doubles returned to Script-Fu: "
                  f"{rows['returned'] * 1e3:.{digits}f} ms a call", flush=True)
    return rows, waits


def returned_cost(s, repeat, calls):
    """What GIMP takes to hand a procedure's result of 1578 doubles (the
    histogram's 42 statistics and 1536 counts) to Script-Fu once: GIMP's
    own gimp-gradient-get-uniform-samples returning 395 samples (1580
    doubles) less the same with 2 (8).  GIMP 2.10 reads each double of a
    float array with a read() of its own, so this is the documented
    result's floor; a plug-in's result crosses twice (plug-in to GIMP,
    GIMP to Script-Fu).  GIMP 2.10 only (see the module's comment)."""
    cost = {}
    for n in (2, 395):
        call = f"(gimp-gradient-get-uniform-samples (car (gimp-context-get-gradient)) {n} FALSE)"
        cost[n] = timed(s, 1, 1, call, repeat, calls)["per"]
    return cost[395] - cost[2]


def main():
    args = list(sys.argv[1:])
    opts = {"--repeat": "3", "--calls": "5", "--ops": ",".join(OPS),
            "--sizes": ",".join(SIZES), "--who": ",".join(WHO)}
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
    whos = [w for w in WHO if w in opts["--who"].split(",")]
    if (calls < 1 or any(o not in OPS for o in ops) or any(z not in SIZES for z in sizes)
            or "gimp" not in whos or "resident" not in whos):
        raise SystemExit(__doc__)
    hosts = [("gimp2", args[0])] + ([("gimp3", args[1])] if len(args) > 1 else [])
    table, starts = {}, {}
    for name, plugin in hosts:
        table[name], starts[name] = measure(plugin, Host(name), repeat, calls, ops,
                                               sizes, whos)
    ms = lambda x: f"{x * 1e3:.{1 if calls >= 20 else 0}f}"  # noqa: E731
    print(f"\nms per call (the {calls} calls after the first, timed in the run), "
          f"median of {repeat} runs each; ratios against GIMP (>= 5 ms)")
    print("| host | call | image | resident | new process | GIMP | resident / GIMP "
          "| new process / GIMP | resident's first call |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, rows in table.items():
        for (op, size), per in ((k, v) for k, v in rows.items() if k != "returned"):
            g = max(per["gimp"]["per"], GIMP_FLOOR)
            r = per["resident"]
            p = per.get("process")
            cells = [name, op, size, ms(r["per"]), ms(p["per"]) if p else "-",
                     ms(per["gimp"]["per"]), f"{r['per'] / g:.2f}",
                     f"{p['per'] / g:.2f}" if p else "-", ms(r["first"])]
            print("| " + " | ".join(cells) + " |")
    for name, rows in table.items():
        if "returned" in rows:
            print(f"{name}: returning 1580 doubles to Script-Fu (GIMP's own gradient "
                  f"samples, 395 less 2) costs {ms(rows['returned'])} ms a call; the "
                  f"histogram's 1578 cross twice")
    for name, waits in starts.items():
        if waits:
            print(f"{name}: GIMP's start-up waits {ms(statistics.median(waits))} ms for the "
                  f"resident's ack (exec to ack, {len(waits)} starts: "
                  f"{', '.join(ms(w) for w in waits)})")


if __name__ == "__main__":
    main()
