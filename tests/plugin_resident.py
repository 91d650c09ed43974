#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The resident process (plugin/gimp*/resident.h) in gimp-console (GIMP 2.10 or
3): scripts' RUN-NONINTERACTIVE calls are served by one process for as
long as GIMP runs, other run modes pass on to the plug-in in a new process, results are
the same as without the resident, the procedures look the same to scripts, and
when the resident dies the plug-in answers again.

The same gimp-console (one profile, the same input files) runs the same commands
twice: with GPU_HISTOGRAM_RESIDENT=trace (the resident says on stderr which
calls it served or passed on) and with GPU_HISTOGRAM_RESIDENT=0 (every call a
new process, as without the resident).

Usage: plugin_resident.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import os
import re
import shutil
import signal
import subprocess

from plugin_apply import png
from plugin_gimp import ROOT, Chunk, GimpConsole, Tally, parse_args, require_gimp, scm_str

TRACE = re.compile(r"gpu-histogram resident (\d+): (\S+) (served|passed on \((.*)\))")
# The procedures, as the core names them.
NAMES = re.findall(r'^  "(plug-in-gpu-histogram[a-z-]*)",$',
                   (ROOT / "plugin" / "core" / "procedures.c").read_text(), re.M)


def traces(text):
    return [m.groups()[:3] + (m.group(4),) for m in TRACE.finditer(text)]


def commands(s, out):
    """The calls both runs make; results go to the folder `out`."""
    chelsea = scm_str(ROOT / "testimages" / "chelsea.png")
    load = f"(let* ((l (gh-load {chelsea})) (img (car l)) (drw (cadr l)))"
    return {
        "calls": (f"{load} (gh-stats \"a\" img drw) (gh-stats \"a2\" img drw)"
                  " (gh-equalize RUN-NONINTERACTIVE img drw 0) (gh-stats \"eq\" img drw)"
                  " (gh-say \"BIN\" (gh-binarize RUN-NONINTERACTIVE img drw 5 -1))"
                  " (gh-stats \"bin\" img drw)"
                  f" (gh-export RUN-NONINTERACTIVE img drw {scm_str(out / 'h.csv')})"
                  f" (gh-save img drw {scm_str(out / 'out.png')}))"),
        # A repeat is not the resident's: it passes on to the plug-in.
        "repeat": (f"{load} (gh-equalize RUN-WITH-LAST-VALS img drw 0)"
                   f" (gh-stats \"rep\" img drw))"),
        "batch": (f"(gh-batch RUN-NONINTERACTIVE {scm_str(s.tmp / 'in' / '*.png')} 1"
                  f" {scm_str(out / 'batch')} {scm_str(out / 'batch.csv')})"),
    }


def info_gimp2(s):
    """Each procedure's type and argument and value types and names, as
    Script-Fu sees them (gimp-procedural-db-proc-info / -arg / -val)."""
    script = ("(define (gh-seq n) (let loop ((k (- n 1)) (acc '()))"
              " (if (< k 0) acc (loop (- k 1) (cons k acc)))))"
              "(define (gh-pdesc f n k) (let ((a (f n k)))"
              " (string-append (number->string (car a)) \":\" (cadr a))))"
              "(for-each (lambda (n) (let ((i (gimp-procedural-db-proc-info n)))"
              " (gh-say \"INFO\" n (list-ref i 5)"
              " (gh-join (map (lambda (k) (gh-pdesc gimp-procedural-db-proc-arg n k))"
              " (gh-seq (list-ref i 6))))"
              " (gh-join (map (lambda (k) (gh-pdesc gimp-procedural-db-proc-val n k))"
              " (gh-seq (list-ref i 7)))))))"
              f" (list {' '.join(scm_str(n) for n in NAMES)}))")
    return s.run({"info": script})["info"]


def info_gimp3(s):
    code = ("from gi.repository import Gimp\n"
            "pdb = Gimp.get_pdb()\n"
            f"for n in {NAMES!r}:\n"
            "    p = pdb.lookup_procedure(n)\n"
            "    d = lambda specs: ','.join('%s:%s' % (x.get_name(), x.value_type.name)"
            " for x in specs)\n"
            "    Gimp.message('INFO|%s|%d|%s|%s' % (n, int(p.get_proc_type()),"
            " d(p.get_arguments()), d(p.get_return_values())))\n")
    return s.python(code)


def run_and_kill(s, first, busy, after):
    """Runs three commands in one gimp-console, killing the resident once the
    first, which it served, has ended; returns ([Chunk], killed pid or None)."""
    p = subprocess.Popen(s.host.argv([first, busy, after]), env=s.env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    lines, pid, killed = [], None, None
    for line in p.stdout:
        lines.append(line)
        m = TRACE.search(line)
        if m and pid is None:
            pid = int(m.group(1))
        if pid and killed is None and line.startswith("batch command"):
            killed = pid
            os.kill(killed, signal.SIGKILL)
    p.wait(timeout=400)
    chunks, _ = GimpConsole._split("".join(lines), 3)
    return chunks, killed


def main():
    host, plugin = parse_args("plugin_resident.py")
    require_gimp(host)
    import numpy as np
    t = Tally()
    with GimpConsole(plugin, host) as s:
        (s.tmp / "in").mkdir()
        for f in ("camera.png", "coffee.png"):
            shutil.copy(ROOT / "testimages" / f, s.tmp / "in" / f)
        runs = {}
        for mode in ("trace", "0"):
            out = s.tmp / mode
            (out / "batch").mkdir(parents=True)
            s.env["GPU_HISTOGRAM_RESIDENT"] = mode
            runs[mode] = (out, s.run(commands(s, out)),
                          info_gimp3(s) if host.gimp3 else info_gimp2(s))
        on_out, on, on_info = runs["trace"]
        off_out, off, off_info = runs["0"]
        for tag in on:
            t.check(f"{tag}: ran with and without the resident", on[tag].ok and off[tag].ok,
                    on[tag].text[-600:] + off[tag].text[-600:])

        # Who answered.
        served = [x for tag in ("calls", "batch") for x in traces(on[tag].text)]
        names = [x[1] for x in served if x[2] == "served"]
        t.check("every RUN-NONINTERACTIVE call served by the resident",
                names == ["plug-in-gpu-histogram"] * 2 + ["plug-in-gpu-histogram-equalize",
                          "plug-in-gpu-histogram", "plug-in-gpu-histogram-binarize",
                          "plug-in-gpu-histogram", "plug-in-gpu-histogram-export",
                          "plug-in-gpu-histogram-batch"], served)
        t.check("one resident process for the whole run",
                len({x[0] for x in served}) == 1, served)
        rep = traces(on["repeat"].text)
        t.check("RUN-WITH-LAST-VALS passed on to the plug-in",
                [(x[1], x[3]) for x in rep] == [("plug-in-gpu-histogram-equalize", "run mode"),
                                                ("plug-in-gpu-histogram", None)]
                and rep[1][2] == "served", rep)
        t.check("GPU_HISTOGRAM_RESIDENT=0: no resident",
                not any(traces(c.text) for c in off.values()))

        # The same results.
        for tag in on:
            a = [m for m in on[tag].messages if not m.startswith("BACKEND")]
            b = [m for m in off[tag].messages if not m.startswith("BACKEND")]
            # The batch says nothing when every file succeeds.
            t.check(f"{tag}: the same statistics, histograms and threshold",
                    a == b and (a != [] or tag == "batch"), f"{a[:2]} vs {b[:2]}")
            t.check(f"{tag}: the same backend", [m for m in on[tag].messages
                                                if m.startswith("BACKEND")]
                    == [m for m in off[tag].messages if m.startswith("BACKEND")])
        for f in ("h.csv", "batch.csv"):
            a, b = (on_out / f).read_bytes(), (off_out / f).read_bytes()
            t.check(f"{f}: byte for byte the same", a == b and len(a) > 0,
                    f"{len(a)} vs {len(b)} bytes")
        pngs = [("out.png",)] + [("batch", f.name) for f in sorted((off_out / "batch").iterdir())]
        t.check("the batch wrote its two images", len(pngs) == 3, pngs)
        for parts in pngs:
            a, b = png(on_out.joinpath(*parts)), png(off_out.joinpath(*parts))
            t.check(f"{'/'.join(parts)}: the same pixels", np.array_equal(a, b))

        # What scripts see of the procedures.
        on_i, off_i = on_info.fields("INFO"), off_info.fields("INFO")
        t.check(f"procedure info read for all {len(NAMES)} procedures",
                len(on_i) == len(NAMES) == len(off_i), on_info.text[-800:])
        t.check("scripts reach the resident's temporary procedures (type 3)",
                all(f[1] == "3" for f in on_i), on_i)
        t.check("without it, the plug-in's (type 1)", all(f[1] == "1" for f in off_i), off_i)
        t.check("the same arguments and return values, names and types",
                [f[:1] + f[2:] for f in on_i] == [f[:1] + f[2:] for f in off_i],
                f"{on_i} vs {off_i}")

        # A resident that dies: the plug-in answers the next call.
        s.env["GPU_HISTOGRAM_RESIDENT"] = "trace"
        chelsea = scm_str(ROOT / "testimages" / "chelsea.png")
        stats = f"(let* ((l (gh-load {chelsea}))) (gh-stats \"{{}}\" (car l) (cadr l)))"
        # Long enough for the kill to land before the next call.
        busy = ("(let* ((img (car (gimp-image-new 2000 2000 RGB)))"
                " (drw (gh-new-layer img 2000 2000 RGB-IMAGE \"b\")))"
                " (gimp-image-insert-layer img drw 0 0)"
                + " (gimp-drawable-histogram drw 0 0.0 1.0)" * 20 + ")")
        chunks, killed = run_and_kill(s, stats.format("d1"), busy, stats.format("d3"))
        t.check("the resident served the first call and was killed", killed is not None)
        got = {k: c for k, c in zip(("d1", "busy", "d3"), chunks)}
        d3 = got.get("d3", Chunk("", False))
        t.check("after its death the call succeeds", d3.ok, d3.text[-800:])
        t.check("answered by the plug-in, not a resident", not traces(d3.text), d3.text[-400:])
        t.check("with the same results",
                [m.split("|", 2)[2] for m in d3.messages if m.startswith(("STATS", "HIST"))]
                == [m.split("|", 2)[2] for m in got["d1"].messages
                    if m.startswith(("STATS", "HIST"))] != [], d3.messages[:2])
    t.finish()


if __name__ == "__main__":
    main()
