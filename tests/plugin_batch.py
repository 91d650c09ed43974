#!/usr/bin/python3
"""plug-in-gpu-histogram-batch in gimp-console (GIMP 2.10 or 3) over a temporary copy of
testimages/ plus one corrupt file and one indexed PNG: statistics rows for
every good file and channel, an error row for the corrupt one, the indexed
one's statistics rows then an error row when the operation cannot change it
(statistics rows only for operation 0), results written in the same format and
equal to OpenCV's (equalize per channel; Otsu binarize on luminance), the CSV
appended to without a second header, calling errors for bad arguments, and the
Script-Fu example plugin/examples/batch-equalize.scm.

Usage: plugin_batch.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import csv
import shutil
import sys

from plugin_apply import gimp_luminance_bins, png
from plugin_gimp import ROOT, GimpSession, Tally, parse_args, require_gimp, scm_str

HEADER = ["file", "channel", "count", "min", "max", "mean", "median", "std_dev", "otsu", "backend"]


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
    with GimpSession(plugin, host, scripts=[example]) as s:
        src = s.tmp / "in"
        src.mkdir()
        good = sorted((ROOT / "testimages").glob("*.png"))
        for f in good:
            shutil.copy(f, src / f.name)
        # a PNG signature, then garbage
        (src / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
        stats, stats0 = s.tmp / "stats.csv", s.tmp / "stats0.csv"

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
            "statistics": batch(0, "", stats0),
            "no match": batch(1, s.tmp / "x", s.tmp / "x.csv").replace("*.png", "*.nothing"),
            "bad operation": batch(7, s.tmp / "x", s.tmp / "x.csv"),
            "example script": f"(script-fu-gpu-histogram-batch-equalize {scm_str(src)} \"c*.png\" 1"
                              f" {scm_str(s.tmp / 'example')})",
        })
        for tag in ("make indexed", "equalize", "binarize", "statistics"):
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
    t.finish()


if __name__ == "__main__":
    main()
