#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The plug-in's statistics against its GIMP's own gimp-drawable-histogram, in
one private gimp-console (GIMP 2.10 or 3): every test image, selections (rectangle, feathered
ellipse), a layer with offsets, an indexed image, 1x1 and 3000x1 layers, a
selection that misses the layer; and the CSV export.  (Other precisions:
plugin_precision.py.)

Usage: plugin_stats.py [--host gimp2|gimp3] PATH-TO-gpu-histogram [PATH-TO-gpu-histogram-cli]
(with the CLI: its histogram CSV must equal the plug-in's export, byte for byte)
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import csv
import os
import sys
from pathlib import Path

from plugin_gimp import ROOT, GimpConsole, Tally, parse_args, require_gimp, scm_str

CHANNELS = ["value", "red", "green", "blue", "alpha", "luminance"]
# PNG colour type (IHDR byte 25) -> the channels GIMP's PDB accepts
PNG_CHANNELS = {0: [0], 4: [0, 4], 2: [0, 1, 2, 3, 5], 6: [0, 1, 2, 3, 4, 5]}
RGB, GRAY = [0, 1, 2, 3, 5], [0]
FIX = ROOT / "tests" / "fixtures" / "gimp"  # the images (the same for both hosts)


def load(file, selection="(none)", extra=""):
    return (f"(let* ((l (gh-load {scm_str(file)})) (img (car l)) (drw (cadr l)))"
            f" (gh-select img '{selection}) {extra}")


def cases(tmp):
    """{tag: (scheme, channels GIMP is asked for)}"""
    out = {}
    images = sorted((ROOT / "testimages").glob("*.png")) + [FIX / "rgba_partial.png",
                                                            FIX / "gray_alpha.png"]
    for img in images:
        chans = PNG_CHANNELS[img.read_bytes()[25]]
        sels = [("none", "(none)")]
        if img.name in ("chelsea.png", "rgba_partial.png"):
            sels += [("rect", "(rect 120 40 200 150)"), ("ellipse", "(ellipse 200 100 350 260)")]
        if img.name == "gray_alpha.png":
            sels += [("ellipse", "(ellipse 40 50 300 200)")]
        for name, sel in sels:
            tag = f"{img.name}/{name}"
            out[tag] = (load(img, sel) + f"(gh-stats \"{tag}\" img drw)"
                        f"(gh-gimp-stats \"{tag}\" drw '({' '.join(map(str, chans))})))", chans)
    chelsea = ROOT / "testimages" / "chelsea.png"
    # A copy of the layer moved partly off the canvas, under a feathered selection:
    # the selection must be read at the layer's offsets.
    out["offset layer/ellipse"] = (load(chelsea, "(ellipse 60 30 300 220)") + """
        (let ((copy (gh-layer-copy drw)))
          (gimp-image-insert-layer img copy 0 0)
          (gimp-layer-set-offsets copy 70 -45)
          (gh-stats "offset layer/ellipse" img copy)
          (gh-gimp-stats "offset layer/ellipse" copy '(0 1 2 3 4 5))))""", [0, 1, 2, 3, 4, 5])
    # A selection that misses the layer entirely.
    out["missed layer"] = (load(chelsea, "(rect 0 0 50 50)") + """
        (let ((copy (gh-layer-copy drw)))
          (gimp-image-insert-layer img copy 0 0)
          (gimp-layer-set-offsets copy 1000 1000)
          (gh-stats "missed layer" img copy)
          (gh-gimp-stats "missed layer" copy '(0 1 2 3 5))))""", RGB)
    out["indexed"] = (load(ROOT / "testimages" / "coffee.png") + """
        (gimp-image-convert-indexed img CONVERT-DITHER-NONE CONVERT-PALETTE-GENERATE 64 FALSE FALSE "")
        (gh-stats "indexed" img drw)
        (gh-gimp-stats "indexed" drw '(0 1 2 3 5)))""", RGB)
    out["1x1"] = ("""(let* ((img (car (gimp-image-new 1 1 RGB)))
               (drw (gh-new-layer img 1 1 RGB-IMAGE "px")))
          (gimp-image-insert-layer img drw 0 0)
          (gimp-context-set-foreground '(200 100 50))
          (gimp-drawable-fill drw FILL-FOREGROUND)
          (gh-stats "1x1" img drw)
          (gh-gimp-stats "1x1" drw '(0 1 2 3 5)))""", RGB)
    out["3000x1"] = ("""(let* ((img (car (gimp-image-new 3000 1 GRAY)))
               (drw (gh-new-layer img 3000 1 GRAY-IMAGE "ramp")))
          (gimp-image-insert-layer img drw 0 0)
          (gimp-context-set-default-colors)
          (gimp-drawable-edit-gradient-fill drw GRADIENT-LINEAR 0 FALSE 1 0 TRUE 0 0 2999 0)
          (gh-stats "3000x1" img drw)
          (gh-gimp-stats "3000x1" drw '(0)))""", GRAY)
    out["export"] = (load(chelsea, "(ellipse 60 30 300 220)") +
                     f"(gh-export RUN-NONINTERACTIVE img drw "
                     f"{scm_str(tmp / 'hist.csv')}) (gh-stats \"export\" img drw))", None)
    # The whole photo, for the CLI to write the same file.
    out["export whole"] = (load(chelsea) + f"(gh-export RUN-NONINTERACTIVE img drw "
                           f"{scm_str(tmp / 'whole.csv')}) (gh-stats \"export whole\" img drw))",
                           None)
    return out


def check_stats(t, tag, chunk, chans, rel=None):
    """Checks the STATS and HIST lines of `tag` in chunk: 42 stats and 1536 bins, each
    histogram summing to its count, channels the drawable lacks all zeros, and count, mean,
    median and std-dev equal to the GIMP lines (gh-gimp-stats) for each channel in chans
    (None: no comparison with GIMP), within close()'s tolerance or rel[channel] where
    given. Returns (stats, histogram), None if they are missing."""
    stats = [f for f in chunk.fields("STATS") if f[0] == tag]
    hist = [f for f in chunk.fields("HIST") if f[0] == tag]
    if not chunk.ok or not stats or not hist:
        t.check(tag, False, f"the command failed:\n{chunk.text}")
        return None
    st = parse_floats("|".join(stats[0][1:]))
    h = parse_floats("|".join(hist[0][1:]))
    t.check(f"{tag}: 42 stats, 1536 bins", len(st) == 42 and len(h) == 1536,
            f"{len(st)} stats, {len(h)} bins")
    if len(st) != 42 or len(h) != 1536:
        return None
    for c in range(6):
        total = sum(h[c * 256:(c + 1) * 256])
        t.check(f"{tag} {CHANNELS[c]}: histogram sums to count",
                close(total, st[c * 7]), f"{total} != {st[c * 7]}")
    if chans is not None:
        for c in set(range(6)) - set(chans) - ({4} if chans == RGB else set()):
            t.check(f"{tag} {CHANNELS[c]}: absent channel is zeros",
                    not any(st[c * 7:c * 7 + 7]) and not any(h[c * 256:(c + 1) * 256]))
        gimp = {int(f[1]): parse_floats("|".join(f[2:])) for f in chunk.fields("GIMP") if f[0] == tag}
        for c in chans:
            if c not in gimp:
                t.check(f"{tag} {CHANNELS[c]}", False, "GIMP gave no histogram")
                continue
            mean, std, median, pixels, count, pct = gimp[c]
            got = dict(count=st[c * 7], mean=st[c * 7 + 3], median=st[c * 7 + 4],
                       std=st[c * 7 + 5])
            want = dict(count=count, mean=mean, median=median if count else -1, std=std)
            bad = [f"{k} {got[k]!r} != GIMP {want[k]!r}" for k in want
                   if not close(got[k], want[k], (rel or {}).get(c, 1e-6))]
            t.check(f"{tag} {CHANNELS[c]} = gimp-drawable-histogram", not bad, "; ".join(bad))
    return st, h


def close(got, want, rel=1e-6):
    if want != want:
        return True  # GIMP has no value (0/0): nothing to compare
    return abs(got - want) <= max(rel * abs(want), 1e-6)


def parse_floats(s):
    # Script-Fu prints NaN as "nan.0" or "-nan.0"
    return [float("nan") if "nan" in x else float(x) for x in s.split("|")] if s else []


def main():
    host, plugin, cli = parse_args("plugin_stats.py", extra=("cli",))
    require_gimp(host)
    t = Tally()
    with GimpConsole(plugin, host) as s:
        todo = cases(s.tmp)
        out = s.run({tag: scheme for tag, (scheme, _) in todo.items()})
        backends = set()
        for tag, (_, chans) in todo.items():
            chunk = out[tag]
            backends.update(f[0] for f in chunk.fields("BACKEND"))
            got = check_stats(t, tag, chunk, chans)
            if got is None:
                continue
            st, h = got
            if tag == "missed layer":
                t.check(f"{tag}: nothing counted", not any(h))
            if tag == "export":
                check_export(t, s.tmp / "hist.csv", h)
        if cli:
            check_cli_export(t, host, cli, s.tmp)
        print("backend:", ", ".join(sorted(backends)) or "none reported")
        check_backend(t, s, backends)
    t.finish()


def cpu_name():
    n = os.cpu_count()
    return f"cpu: {n} thread{'' if n == 1 else 's'}"


def check_backend(t, s, backends):
    """The backend string is the expected one on this machine: under AUTO with no GPU, the
    CPU's name exactly (no GPU is the normal case: nothing said); with
    GPU_HISTOGRAM_BACKEND=cuda and no usable GPU, the CPU's name with why, and the reason
    once on stderr (a script's call)."""
    gpu_here = Path("/dev/nvidia0").exists()
    if not gpu_here:
        t.check("AUTO, no GPU: the backend is exactly the CPU's", backends == {cpu_name()},
                f"{sorted(backends)} != {cpu_name()!r}")
    else:
        t.check("AUTO: no fallback text", not any("GPU failed" in b for b in backends),
                repr(sorted(backends)))
    s.env["GPU_HISTOGRAM_BACKEND"] = "cuda"
    try:
        chunk = s.run({"cuda": '''(let* ((img (car (gimp-image-new 1 1 RGB)))
               (drw (gh-new-layer img 1 1 RGB-IMAGE "px")))
          (gimp-image-insert-layer img drw 0 0)
          (gh-stats "cuda" img drw))'''})["cuda"]
    finally:
        del s.env["GPU_HISTOGRAM_BACKEND"]
    got = [f[0] for f in chunk.fields("BACKEND")]
    told = [line for line in chunk.text.splitlines()
            if line.startswith("gpu-histogram: the GPU could not be used: ")]
    if got and got[0].startswith("cuda: "):
        t.check("GPU_HISTOGRAM_BACKEND=cuda with a GPU: counted there, nothing told",
                not told, "\n".join(told))
        return
    t.check("GPU_HISTOGRAM_BACKEND=cuda, no usable GPU: the backend says why",
            len(got) == 1 and got[0].startswith(cpu_name() + " (GPU failed: "), repr(got))
    t.check("... and stderr says it once", len(told) == 1, chunk.text[-2000:])
    print("with GPU_HISTOGRAM_BACKEND=cuda:", got[0] if got else None, "|",
          told[0] if told else None)


def check_cli_export(t, host, cli, tmp):
    """The CLI, the engine's third host, writes the plug-in's CSV byte for byte
    (with this GIMP's luminance rule)."""
    import subprocess
    from netpbm import load_png, write_pnm
    pam = tmp / "chelsea.pam"
    write_pnm(pam, load_png(ROOT / "testimages" / "chelsea.png"))
    p = subprocess.run([cli, str(pam), "--luminance", host.luminance,
                        "--histogram", str(tmp / "cli.csv")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    mine = (tmp / "cli.csv").read_bytes() if (tmp / "cli.csv").exists() else None
    plug = (tmp / "whole.csv").read_bytes() if (tmp / "whole.csv").exists() else None
    t.check("the CLI's histogram CSV equals the plug-in's export, byte for byte",
            p.returncode == 0 and mine is not None and mine == plug,
            p.stdout[-500:] if p.returncode or mine is None else
            "no export" if plug is None else "the files differ")


def check_export(t, path, h):
    try:
        rows = list(csv.reader(open(path, newline="")))
    except OSError as e:
        t.check("export: CSV written", False, str(e))
        return
    t.check("export: header", rows[0] == ["bin", "value", "red", "green", "blue", "alpha",
                                          "luminance"], repr(rows[0]))
    t.check("export: 256 rows, then nothing", len(rows) == 257 and
            [int(r[0]) for r in rows[1:]] == list(range(256)), f"{len(rows)} rows")
    bad = [(b, c) for b in range(min(256, len(rows) - 1)) for c in range(6)
           if not close(float(rows[b + 1][c + 1]), h[c * 256 + b], 1e-9)]
    t.check("export: counts equal the procedure's histogram", not bad, f"differ at {bad[:5]}")


if __name__ == "__main__":
    main()
