#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""plug-in-gpu-histogram-batch in gimp-console (GIMP 2.10 or 3) over a temporary copy of
testimages/ plus one corrupt file and one indexed PNG: statistics rows for
every good file and channel, an error row for the corrupt one, the indexed
one's statistics rows then an error row when the operation cannot change it
(statistics rows only for operation 0), results written in the same format and
equal to OpenCV's (equalize per channel; Otsu binarize on luminance), the CSV
appended to without a second header, calling errors for bad arguments, and the
Script-Fu example plugin/examples/batch-equalize.scm.

In GIMP 3, where the GEGL module of the same build is there (BUILD/GIMP-env/
gegl/gpu-histogram-gegl.so beside BUILD/gpu-histogram-GIMP), the batches run
again with it installed: each file's operation is then GIMP's merged filter
(no pixel comes back through the plug-in), and each result and the whole
statistics table must equal the plug-in's pixel path's, byte for byte but for
the save's time stamps (PNG tIME, the ICC profile's date and ID) and metadata
(EXIF and XMP, which hold the time and random IDs); and with no
statistics table (the argument left out), equalize and binarize: the same
results (equalize with no pixel read out, binarize through the engine made
when the first file needs it), the failed files said in the message.

Usage: plugin_batch.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import csv
import shutil
import struct
import sys
import zlib
from pathlib import Path

from plugin_apply import gimp_luminance_bins, png
from plugin_gimp import ROOT, GimpConsole, Tally, parse_args, require_gimp, scm_str

HEADER = ["file", "channel", "count", "min", "max", "mean", "median", "std_dev", "otsu", "backend"]


# The metadata GIMP 3 writes as its Export does (the batch keeps the inputs'
# metadata: plugin_metadata.py), which holds the time of the save and
# random IDs: EXIF (eXIf), XMP (iTXt) and ImageMagick's raw profiles.
VOLATILE_TEXT = (b"XML:com.adobe.xmp\0", b"Raw profile type ")


def png_chunks(path):
    """A PNG's chunks but tIME and the metadata, the ICC profile without its
    date and ID: what two saves of the same image by GIMP have alike."""
    d, i, out = path.read_bytes(), 8, []
    while i < len(d):
        n, = struct.unpack(">I", d[i:i + 4])
        kind, data = d[i + 4:i + 8], d[i + 8:i + 8 + n]
        i += 12 + n
        if kind == b"iCCP":
            k = data.index(b"\0")
            icc = bytearray(zlib.decompress(data[k + 2:]))
            icc[24:36], icc[84:100] = bytes(12), bytes(16)
            data = data[:k + 2] + bytes(icc)
        if kind in (b"iTXt", b"zTXt", b"tEXt") and data.startswith(VOLATILE_TEXT):
            continue
        if kind not in (b"tIME", b"eXIf"):
            out.append((kind, data))
    return out


def module_of(plugin):
    """The GEGL module built with this GIMP 3 plug-in, or None."""
    plugin = Path(plugin).resolve()
    name = plugin.name.removeprefix("gpu-histogram-")
    module = plugin.parent / f"{name}-env" / "gegl" / "gpu-histogram-gegl.so"
    return module if module.exists() else None


def through_module(t, s, src, module, tables):
    """The batches again with the module installed: `tables` [(table,
    {operation: the pixel path's output folder})], each table's operations in
    the order they ran; and two without a table: equalize, which GIMP applies
    (no engine is made until indexed.png needs one), and binarize, which keeps
    the pixel path (the engine made at the first file).  Each result and
    table against the pixel path's."""
    data = s.tmp / "data"
    (data / "gegl-0.4" / "plug-ins").mkdir(parents=True)
    shutil.copy(module, data / "gegl-0.4" / "plug-ins")
    s.env["XDG_DATA_HOME"] = str(data)
    pattern = scm_str(src / "*.png")
    commands = {op: (f"(gh-batch RUN-NONINTERACTIVE {pattern} {op}"
                     f" {scm_str(s.tmp / f'module{op}')} {scm_str(s.tmp / ('module-' + table.name))})")
                for table, ops in tables for op in ops}
    for op in (1, 3):
        commands[f"no table {op}"] = (
            "(plug-in-gpu-histogram-batch #:run-mode RUN-NONINTERACTIVE"
            f" #:pattern {pattern} #:operation {op}"
            f" #:output-dir {scm_str(s.tmp / f'module-no-table-{op}')})")
    out = s.run(commands)
    s.env.pop("XDG_DATA_HOME")
    want = {op: folder for _, ops in tables for op, folder in ops.items()}
    for op in (1, 3):
        want[f"no table {op}"] = want[op]
    for op, folder in want.items():
        got = s.tmp / (f"module-{op.replace(' ', '-')}" if isinstance(op, str) else f"module{op}")
        t.check(f"module, operation {op}: ran", out[op].ok, out[op].text)
        for f in sorted(folder.glob("*.png")):
            t.check(f"module, operation {op}: {f.name} as the pixel path's",
                    (got / f.name).exists() and png_chunks(got / f.name) == png_chunks(f))
        t.check(f"module, operation {op}: nothing written for the failed files",
                sorted(p.name for p in got.glob("*")) == sorted(p.name for p in folder.glob("*")))
    for table, _ in tables:
        got = s.tmp / ("module-" + table.name)
        t.check(f"module: {table.name} as the pixel path's",
                got.exists() and got.read_bytes() == table.read_bytes())
    for op in (1, 3):
        text = out[f"no table {op}"].text
        t.check(f"module, no table {op}: the failed files said, no table named",
                "broken.png" in text and "indexed.png" in text and "statistics in" not in text,
                text)


def main():
    host, plugin = parse_args("plugin_batch.py")
    require_gimp(host)
    import cv2
    import numpy as np
    t = Tally()
    # GIMP 3 runs the 2.10 script as it is unless the examples have one of its own.
    example = ROOT / "plugin" / "examples" / "batch-equalize.scm"
    if host.gimp3 and example.with_name("batch-equalize-3.scm").exists():
        example = example.with_name("batch-equalize-3.scm")
    with GimpConsole(plugin, host, scripts=[example]) as s:
        src = s.tmp / "in"
        src.mkdir()
        good = sorted((ROOT / "testimages").glob("*.png"))
        for f in good:
            shutil.copy(f, src / f.name)
        # a PNG signature, then garbage
        (src / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
        stats, stats0, stats24 = s.tmp / "stats.csv", s.tmp / "stats0.csv", s.tmp / "stats24.csv"

        def batch(op, out, csv_path):
            return (f"(gh-batch RUN-NONINTERACTIVE {scm_str(src / '*.png')} {op}"
                    f" {scm_str(out)} {scm_str(csv_path)})")

        indexed = src / "indexed.png"
        out = s.run({
            # Made here, where GIMP can write an indexed PNG; the batches after it see it.
            "make indexed": (f"(let* ((l (gh-load {scm_str(ROOT / 'testimages' / 'coffee.png')}))"
                             " (img (car l)) (drw (cadr l)))"
                             " (gimp-image-convert-indexed img CONVERT-DITHER-NONE"
                             " CONVERT-PALETTE-GENERATE 64 FALSE FALSE \"\")"
                             f" (gh-save img drw {scm_str(indexed)}))"),
            "equalize": batch(1, s.tmp / "out1", stats),
            "binarize": batch(3, s.tmp / "out3", stats),
            "equalize luminance": batch(2, s.tmp / "out2", stats24),
            "clahe": batch(4, s.tmp / "out4", stats24),
            "statistics": batch(0, "", stats0),
            "no match": batch(1, s.tmp / "x", s.tmp / "x.csv").replace("*.png", "*.nothing"),
            "bad operation": batch(7, s.tmp / "x", s.tmp / "x.csv"),
            "example script": f"(script-fu-gpu-histogram-batch-equalize {scm_str(src)} \"c*.png\" 1"
                              f" {scm_str(s.tmp / 'example')})",
        })
        for tag in ("make indexed", "equalize", "binarize", "equalize luminance", "clahe",
                    "statistics"):
            t.check(f"batch {tag}: ran", out[tag].ok, out[tag].text)
        t.check("no match: error", not out["no match"].ok and "no file matches" in out["no match"].text,
                out["no match"].text)
        t.check("bad operation: calling error", not out["bad operation"].ok
                and host.calling_error(out["bad operation"].text), out["bad operation"].text)

        rows = list(csv.reader(open(stats, newline=""))) if stats.exists() else [[]]
        t.check("CSV header once, first", rows[0] == HEADER and rows.count(HEADER) == 1, repr(rows[0]))
        body = [r for r in rows[1:]]
        for f in good:
            path = str(src / f.name)
            chans = [r[1] for r in body if r[0] == path]
            want = ["value"] if png(f).ndim == 2 else ["value", "red", "green", "blue", "luminance"]
            t.check(f"{f.name}: one row per channel, per run", chans == want * 2, repr(chans))
        bad = [r for r in body if r[0] == str(src / "broken.png")]
        t.check("broken.png: an error row per run, with a message",
                len(bad) == 2 and all(r[1] == "error" and r[9] for r in bad), repr(bad))
        chans = [r[1] for r in body if r[0] == str(indexed)]
        t.check("indexed.png: statistics rows, then an error row, per run",
                chans == ["value", "red", "green", "blue", "luminance", "error"] * 2, repr(chans))
        t.check("indexed.png: the error says it is indexed",
                all("indexed" in r[9] for r in body if r[0] == str(indexed) and r[1] == "error"))
        t.check("every row has 10 fields and a backend",
                all(len(r) == 10 and r[9] for r in body), repr([r for r in body if len(r) != 10][:2]))

        for f in good:
            a = png(f)
            try:
                eq, bi = png(s.tmp / "out1" / f.name), png(s.tmp / "out3" / f.name)
            except RuntimeError as e:
                t.check(f"{f.name}: results written", False, str(e))
                continue
            want = (cv2.equalizeHist(a) if a.ndim == 2 else
                    np.dstack([cv2.equalizeHist(np.ascontiguousarray(a[..., k])) for k in range(3)]))
            t.check(f"{f.name}: equalized = cv2.equalizeHist per channel",
                    eq.shape == want.shape and (eq == want).all())
            level = a if a.ndim == 2 else gimp_luminance_bins(a, host.luminance)
            _, want = cv2.threshold(level, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
            if a.ndim == 3:
                want = np.repeat(want[..., None], 3, axis=2)
            t.check(f"{f.name}: binarized = OpenCV Otsu on luminance",
                    bi.shape == want.shape and (bi == want).all())
        t.check("nothing written for broken.png and indexed.png",
                not any((s.tmp / d / n).exists() for d in ("out1", "out3")
                        for n in ("broken.png", "indexed.png")))

        names = sorted(p.name for p in (s.tmp / "example").glob("*"))
        t.check("example batch-equalize.scm: results and statistics.csv written", out["example script"].ok
                and names == ["camera.png", "chelsea.png", "coffee.png", "coins.png", "statistics.csv"],
                f"{names}\n{out['example script'].text}")
        rows0 = list(csv.DictReader(open(stats0, newline=""))) if stats0.exists() else []
        for f in good:
            a = png(f)
            value = a if a.ndim == 2 else a.max(axis=2)
            r = [r for r in rows0 if r["file"] == str(src / f.name) and r["channel"] == "value"]
            t.check(f"statistics only: {f.name} value mean and count", len(r) == 1
                    and abs(float(r[0]["mean"]) - value.mean()) < 1e-9
                    and float(r[0]["count"]) == value.size, repr(r))
        chans = [r["channel"] for r in rows0 if r["file"] == str(indexed)]
        t.check("statistics only: indexed.png has its rows and no error",
                chans == ["value", "red", "green", "blue", "luminance"], repr(chans))
        module = module_of(plugin) if host.gimp3 else None
        if module:
            outs = {op: s.tmp / f"out{op}" for op in (1, 2, 3, 4)}
            through_module(t, s, src, module, [(stats, {1: outs[1], 3: outs[3]}),
                                               (stats24, {2: outs[2], 4: outs[4]})])
        elif host.gimp3:
            print(f"through the GEGL module: skipped (no module beside {plugin})")
    t.finish()


if __name__ == "__main__":
    main()
