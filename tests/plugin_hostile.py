#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile input to every procedure (GIMP 2.10 or 3), each a check:

- arguments out of range, of the wrong type and empty strings in every
  procedure: refused (a calling error, or Script-Fu's own type error),
  with a message naming the argument; never a crash, never a silent
  default;
- drawables: layer groups, layer masks, channels, the selection, text
  layers, layers partly outside the canvas, empty (missing the layer) and
  one-pixel selections, fully transparent layers, a 1x30000 layer, float
  layers holding NaN, +-Inf, negative and > 1.0 values: statistics equal
  GIMP's own gimp-drawable-histogram (count, mean, median, std-dev), and
  equalize / binarize either work or refuse with a message, never crash;
- GIMP 3.2's vector and link layers (pixels GIMP renders from a path or a
  file; GIMP 3.0 has neither, which the test says): statistics equal
  GIMP's, and every procedure (export, equalize, binarize, CLAHE, match
  as the layer and as the reference, multi-level Otsu) works or refuses
  with a message; what they changed stays (GIMP rasterizes a layer it
  edits), the same after an XCF save and load, never re-rendered away;
- batch inputs: a pattern matching nothing, a folder, a FIFO (which a
  loader would wait on forever), a dangling link and a link to a good
  file, JPEG, TIFF and XCF files (saved back in their own format with
  GIMP's default export settings).

Usage: plugin_hostile.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import csv
import os
import re
import tempfile
from pathlib import Path

from plugin_beyond import GIMP2_CALLS, GIMP3_CALLS
from plugin_gimp import ROOT, GimpConsole, Tally, parse_args, require_gimp, scm_str
from plugin_stats import RGB, check_stats

RGBA = [0, 1, 2, 3, 4, 5]

# (GIMP 3's console prints "gimp_wire_read(): unexpected EOF" whenever it
# stops at a failing command: not a crash.)
CRASH = ("crashed", "segmentation fault", "plug-in died")


def main():
    host, plugin = parse_args("plugin_hostile.py")
    require_gimp(host)
    import cv2
    import numpy as np
    t = Tally()
    cam = ROOT / "testimages" / "camera.png"
    che = ROOT / "testimages" / "chelsea.png"

    def on(file, body):
        return (f"(let* ((l (gh-load {scm_str(file)})) (img (car l)) (drw (cadr l))) {body})")

    # plugin_beyond's calls of CLAHE, match and multi-level Otsu.
    calls = Path(tempfile.mkdtemp(prefix="gh-hostile-", dir="/tmp")) / "gh-beyond-calls.scm"
    calls.write_text(GIMP3_CALLS if host.gimp3 else GIMP2_CALLS)
    with GimpConsole(plugin, host, scripts=[calls]) as s:
        tmp = s.tmp
        csvf = scm_str(tmp / "x.csv")
        # ---- arguments ---------------------------------------------------
        # tag: (call, the argument's name the message must hold)
        bad = {
            "equalize mode -1": (on(che, "(gh-equalize RUN-NONINTERACTIVE img drw -1)"), "mode"),
            "equalize mode 2": (on(che, "(gh-equalize RUN-NONINTERACTIVE img drw 2)"), "mode"),
            "equalize mode string": (on(che, "(gh-equalize RUN-NONINTERACTIVE img drw \"1\")"), None),
            "binarize channel -1": (on(che, "(gh-binarize RUN-NONINTERACTIVE img drw -1 -1)"), "channel"),
            "binarize channel 6": (on(che, "(gh-binarize RUN-NONINTERACTIVE img drw 6 -1)"), "channel"),
            "binarize threshold -2": (on(che, "(gh-binarize RUN-NONINTERACTIVE img drw 0 -2)"), "threshold"),
            "binarize threshold 255": (on(che, "(gh-binarize RUN-NONINTERACTIVE img drw 0 255)"), "threshold"),
            "binarize channel string": (on(che, "(gh-binarize RUN-NONINTERACTIVE img drw \"x\" -1)"), None),
            "export empty file name": (on(che, "(gh-export RUN-NONINTERACTIVE img drw \"\")"), "filename"),
            "export number as file": (on(che, "(gh-export RUN-NONINTERACTIVE img drw 5)"), None),
            "batch empty pattern": (f"(gh-batch RUN-NONINTERACTIVE \"\" 1 {scm_str(tmp / 'o')} {csvf})", "pattern"),
            "batch operation -1": (f"(gh-batch RUN-NONINTERACTIVE {scm_str(cam)} -1 {scm_str(tmp / 'o')} {csvf})",
                                   "operation"),
            "batch operation 6": (f"(gh-batch RUN-NONINTERACTIVE {scm_str(cam)} 6 {scm_str(tmp / 'o')} {csvf})",
                                  "operation"),
            "batch empty output-dir": (f"(gh-batch RUN-NONINTERACTIVE {scm_str(cam)} 1 \"\" {csvf})", "output"),
            "batch empty stats-csv": (f"(gh-batch RUN-NONINTERACTIVE {scm_str(cam)} 1 {scm_str(tmp / 'o')} \"\")",
                                      "stats"),
            "batch operation string": (f"(gh-batch RUN-NONINTERACTIVE {scm_str(cam)} \"1\" {scm_str(tmp / 'o')} {csvf})",
                                       None),
            "statistics of drawable -1": ("(gh-histogram RUN-NONINTERACTIVE 1 -1)", None),
            # Past the vocabulary's other ends (plugin_beyond has classes 2
            # and 6, tiles-x 0, tiles-y 257 and clip-limit -1): one range
            # per parameter, the CLI's (tests/cli_ranges.py) and both hosts'.
            "clahe clip-limit 256.5": (on(che, "(gh-clahe RUN-NONINTERACTIVE img drw 256.5 8 8 0)"),
                                       "clip-limit"),
            "clahe tiles-x 257": (on(che, "(gh-clahe RUN-NONINTERACTIVE img drw 2.0 257 8 0)"), "tiles-x"),
            "clahe tiles-y 0": (on(che, "(gh-clahe RUN-NONINTERACTIVE img drw 2.0 8 0 0)"), "tiles-y"),
            "multi-otsu channel -1": (on(che, "(gh-multi-otsu RUN-NONINTERACTIVE img drw -1 3 1)"), "channel"),
            "multi-otsu channel 6": (on(che, "(gh-multi-otsu RUN-NONINTERACTIVE img drw 6 3 1)"), "channel"),
        }
        out = s.run({tag: call for tag, (call, _) in bad.items()})
        for tag, (_, name) in bad.items():
            text = out[tag].text
            refused = not out[tag].ok and (host.calling_error(text) or name is None)
            t.check(f"{tag}: refused, no crash", refused
                    and not any(c in text.lower() for c in CRASH), text)
            if name:
                # GIMP 3's Script-Fu checks ranges before the call and
                # names the argument by its place ("argument 8").
                t.check(f"{tag}: the message names {name}", name in text.lower()
                        or (host.gimp3 and re.search(r"argument \d+ in call", text)), text)
        t.check("nothing written by the refused calls",
                not (tmp / "x.csv").exists() and not (tmp / "o").exists())

        # ---- drawables ----------------------------------------------------
        # A float TIFF with NaN, infinities, negative and > 1.0 values.
        f = np.random.default_rng(5).random((40, 50, 3), dtype=np.float32)
        specials = [np.nan, np.inf, -np.inf, -0.5, 1.75, -1e30, 1e30]
        for k, v in enumerate(specials):
            f[k, :10, k % 3] = v
        cv2.imwrite(str(tmp / "float.tif"), f)

        def stats(tag, drw, chans):
            return (f"(gh-stats \"{tag}\" img {drw}) (gh-gimp-stats \"{tag}\" {drw} '({' '.join(map(str, chans))}))")

        def apply(drw):
            # Each may be refused (a clear error): only a crash is wrong.
            return (f"(gh-guard (lambda () (gh-equalize RUN-NONINTERACTIVE img {drw} 0)))"
                    f"(gh-guard (lambda () (gh-equalize RUN-NONINTERACTIVE img {drw} 1)))"
                    f"(gh-guard (lambda () (gh-binarize RUN-NONINTERACTIVE img {drw} 0 -1)))"
                    "(gh-say \"APPLIED\")")

        drawables = {
            "layer mask": (on(che, "(let ((m (car (gimp-layer-create-mask drw ADD-MASK-COPY))))"
                                   " (gimp-layer-add-mask drw m) " + stats("layer mask", "m", [0]) + apply("m") + ")"),
                           [0]),
            "channel": (on(che, "(let ((c (gh-channel-new img 451 300 \"c\")))"
                                " (gimp-image-insert-channel img c 0 0)"
                                " (gimp-drawable-fill c FILL-WHITE)"
                                " (gimp-image-select-ellipse img CHANNEL-OP-REPLACE 10 10 200 100)"
                                " (gimp-drawable-edit-fill c FILL-BACKGROUND)"
                                " (gimp-selection-none img) "
                                + stats("channel", "c", [0]) + apply("c") + ")"), [0]),
            "selection": (on(che, "(gimp-image-select-ellipse img CHANNEL-OP-REPLACE 10 10 200 100)"
                                  "(let ((sel (car (gimp-image-get-selection img)))) "
                                  + stats("selection", "sel", [0]) + apply("sel") + ")"), [0]),
            "layer group": (on(che, "(let ((g (gh-group img)) (c (gh-layer-copy drw)))"
                                    " (gimp-image-insert-layer img g 0 0)"
                                    " (gimp-image-insert-layer img c g 0) "
                                    + stats("layer group", "g", RGBA) + apply("g") + ")"),
                            RGBA),
            "text layer": (on(che, "(let ((tl (gh-text-layer img \"Hostile\")))"
                                   " (gimp-image-insert-layer img tl 0 0) "
                                   + stats("text layer", "tl", RGBA) + apply("tl") + ")"),
                           RGBA),
            "partly outside": (on(che, "(gimp-layer-set-offsets drw -200 -150) "
                                       + stats("partly outside", "drw", RGB) + apply("drw")),
                               RGB),
            "one-pixel selection": (on(che, "(gimp-context-set-antialias FALSE) (gimp-context-set-feather FALSE)"
                                            "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 7 9 1 1) "
                                            + stats("one-pixel selection", "drw", RGB) + apply("drw")),
                                    RGB),
            "selection missing the layer": (on(che, "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 0 0 20 20)"
                                                    "(gimp-layer-set-offsets drw 300 200) "
                                                    + stats("selection missing the layer", "drw", RGB)
                                                    + apply("drw")), RGB),
            "transparent": (on(che, "(gimp-layer-add-alpha drw) (gimp-drawable-fill drw FILL-TRANSPARENT) "
                                    + stats("transparent", "drw", RGBA) + apply("drw")),
                            RGBA),
            "1x30000": ("(let* ((img (car (gimp-image-new 1 30000 RGB)))"
                        " (drw (gh-new-layer img 1 30000 RGBA-IMAGE \"tall\")))"
                        " (gimp-image-insert-layer img drw 0 0)"
                        " (gimp-context-set-default-colors)"
                        " (gimp-drawable-edit-gradient-fill drw GRADIENT-LINEAR 0 FALSE 1 0 TRUE 0 0 0 29999) "
                        + stats("1x30000", "drw", RGBA) + apply("drw") + ")", RGBA),
            "float specials": (on(tmp / "float.tif", stats("float specials", "drw", RGB)
                                  + apply("drw")), RGB),
        }
        text = {"text layer": drawables.pop("text layer")}
        out = s.run({tag: call for tag, (call, _) in drawables.items()})
        # Text needs fonts, which the tests' GIMP 2.10 runs skip (-f).
        argv = host.argv
        host.argv = lambda commands, *a: [x for x in argv(commands, *a) if x != "-f"]
        out.update(s.run({tag: call for tag, (call, _) in text.items()}))
        host.argv = argv
        drawables.update(text)
        for tag, (_, chans) in drawables.items():
            chunk = out[tag]
            t.check(f"{tag}: ran, no crash", chunk.ok and chunk.messages.count("APPLIED") == 1
                    and not any(c in chunk.text.lower() for c in CRASH), chunk.text[-2000:])
            check_stats(t, tag, chunk, chans)
            for why in chunk.fields("REFUSED"):
                t.check(f"{tag}: a refusal says why", bool(why and why[0]), repr(why))

        if host.gimp3:
            layer_kinds(t, s, host, che, stats)

        # ---- batch inputs -------------------------------------------------
        src = tmp / "in"
        src.mkdir()
        a = cv2.imread(str(che))
        cv2.imwrite(str(src / "a.png"), a)
        cv2.imwrite(str(src / "b.jpg"), a)
        cv2.imwrite(str(src / "c.tif"), a)
        (src / "d-folder.png").mkdir()
        os.mkfifo(src / "e-fifo.png")
        (src / "f-dangling.png").symlink_to(src / "nowhere.png")
        (src / "g-link.png").symlink_to(src / "a.png")
        before = (src / "a.png").read_bytes()
        o = s.run({
            "make xcf": on(che, f"(gh-save img drw {scm_str(src / 'h.xcf')})"),
            "batch": f"(gh-batch RUN-NONINTERACTIVE {scm_str(src / '*')} 1 {scm_str(tmp / 'bo')}"
                     f" {scm_str(tmp / 'b.csv')})",
            "no match": f"(gh-batch RUN-NONINTERACTIVE {scm_str(src / '*.nothing')} 1 {scm_str(tmp / 'bo2')}"
                        f" {scm_str(tmp / 'b2.csv')})",
        })
        t.check("batch over hostile inputs: ran to its end (no hang on the FIFO)", o["batch"].ok,
                o["batch"].text)
        t.check("pattern matching nothing: an error naming the pattern", not o["no match"].ok
                and "no file matches" in o["no match"].text and not (tmp / "b2.csv").exists(),
                o["no match"].text)
        rows = list(csv.reader(open(tmp / "b.csv", newline=""))) if (tmp / "b.csv").exists() else []
        errs = {os.path.basename(r[0]): r[9] for r in rows if len(r) == 10 and r[1] == "error"}
        for name, why in (("d-folder.png", "folder"), ("e-fifo.png", "not a regular file"),
                          ("f-dangling.png", "no such file")):
            t.check(f"batch: {name} refused, saying {why!r}", why in errs.get(name, "").lower(), repr(errs))
        ok_files = {os.path.basename(r[0]) for r in rows if len(r) == 10 and r[1] == "value"}
        t.check("batch: the good files, the link, JPEG, TIFF and XCF processed",
                {"a.png", "b.jpg", "c.tif", "g-link.png", "h.xcf"} <= ok_files
                and not {"a.png", "b.jpg", "c.tif", "g-link.png", "h.xcf"} & set(errs),
                f"{sorted(ok_files)} {errs}")
        magic = {"a.png": b"\x89PNG", "g-link.png": b"\x89PNG", "b.jpg": b"\xff\xd8\xff",
                 "c.tif": (b"II*\0", b"MM\0*"), "h.xcf": b"gimp xcf"}
        for name, m in magic.items():
            p = tmp / "bo" / name
            head = p.read_bytes()[:9] if p.is_file() and not p.is_symlink() else b""
            t.check(f"batch: {name} saved in its own format, a regular file",
                    head.startswith(m if isinstance(m, tuple) else (m,)), repr(head))
        t.check("batch: the link's target is unchanged", (src / "a.png").read_bytes() == before)
        for name in ("a.png", "b.jpg", "c.tif"):
            got = cv2.imread(str(tmp / "bo" / name))
            t.check(f"batch: {name}'s result reads back at the input's size",
                    got is not None and got.shape == a.shape)
    calls.unlink()
    calls.parent.rmdir()
    t.finish()


# GIMP 3.2's new drawable kinds, made on chelsea: a vector layer (a filled
# and stroked ellipse path) and a link layer (chelsea.png itself).
KINDS = {
    "vector layer": "(let ((p (car (gimp-path-new img \"p\"))))"
                    " (gimp-image-insert-path img p 0 0)"
                    " (gimp-path-bezier-stroke-new-ellipse p 200 150 120 80 0)"
                    " (let ((v (car (gimp-vector-layer-new img p))))"
                    "  (gimp-image-insert-layer img v 0 0)"
                    "  (gimp-vector-layer-set-enable-fill v TRUE)"
                    "  (gimp-vector-layer-set-fill-color v '(200 120 40))"
                    "  (gimp-vector-layer-set-enable-stroke v TRUE)"
                    "  (gimp-vector-layer-set-stroke-color v '(20 60 230))"
                    "  (gimp-vector-layer-set-stroke-width v 12)"
                    "  (gimp-vector-layer-refresh v) v))",
    "link layer": "(let ((v (car (gimp-link-layer-new img {file}))))"
                  " (gimp-image-insert-layer img v 0 0) v)",
}
IS_KIND = {"vector layer": "gimp-item-id-is-vector-layer", "link layer": "gimp-item-id-is-link-layer"}


def layer_kinds(t, s, host, che, stats):
    """Every procedure on GIMP 3.2's vector and link layers; in GIMP 3.0,
    that it has none (its PDB lacks the procedures that make them)."""
    has = ("(gh-say \"KINDS\" (car (gimp-pdb-procedure-exists \"gimp-vector-layer-new\"))"
           " (car (gimp-pdb-procedure-exists \"gimp-link-layer-new\")))")
    # A histogram of value as GIMP gives it: what the layer holds.
    held = "(gh-join (map gh-str (gimp-drawable-histogram {d} 0 0.0 1.0)))"

    cmds = {"kinds": has}
    for tag, make in KINDS.items():
        xcf = scm_str(s.tmp / f"{tag[0]}.xcf")
        procedures = "".join(f"(gh-guard (lambda () {call}))" for call in (
            f"(gh-export RUN-NONINTERACTIVE img v {scm_str(s.tmp / (tag[0] + '.csv'))})",
            "(gh-equalize RUN-NONINTERACTIVE img v 0)",
            "(gh-equalize RUN-NONINTERACTIVE img v 1)",
            "(gh-binarize RUN-NONINTERACTIVE img v 0 -1)",
            "(gh-clahe RUN-NONINTERACTIVE img v 2.0 8 8 0)",
            "(gh-match RUN-NONINTERACTIVE img v drw 0)",
            "(gh-match RUN-NONINTERACTIVE img drw v 0)",
            "(gh-multi-otsu RUN-NONINTERACTIVE img v 5 3 TRUE)"))
        top = "(vector-ref (car (gimp-image-get-layers back)) 0)"
        cmds[tag] = (
            "(if (= 1 (car (gimp-pdb-procedure-exists \"gimp-vector-layer-new\")))"
            f" (let* ((l (gh-load {scm_str(che)})) (img (car l)) (drw (cadr l))"
            f"        (v {make.format(file=scm_str(che))}))"
            f"  (gh-say \"KIND\" (car ({IS_KIND[tag]} v)))"
            f"  {stats(tag, 'v', list(range(6)))} (gh-say \"BEFORE\" {held.format(d='v')})"
            f"  {procedures} (gh-say \"APPLIED\")"
            f"  (gh-say \"HELD\" {held.format(d='v')})"
            f"  (gimp-file-save RUN-NONINTERACTIVE img {xcf} -1)"
            f"  (let ((back (car (gimp-file-load RUN-NONINTERACTIVE {xcf}))))"
            f"   (gh-say \"LOADED\" {held.format(d=top)})))"
            " (gh-say \"NONE\"))")
    out = s.run(cmds)
    kinds = out["kinds"].fields("KINDS")
    if kinds != [["1", "1"]]:
        # GIMP 3.0: the difference named, not skipped.
        t.check("vector and link layers: GIMP 3.0 has none (new in GIMP 3.2), nothing to run",
                kinds == [["0", "0"]] and not host.v32
                and all(out[tag].messages == ["NONE"] for tag in KINDS),
                f"{kinds} in {host.label}")
        return
    for tag in KINDS:
        chunk = out[tag]
        t.check(f"{tag}: GIMP 3.2 made one", chunk.fields("KIND") == [["1"]], chunk.text[-2000:])
        t.check(f"{tag}: every procedure ran, no crash", chunk.ok
                and chunk.messages.count("APPLIED") == 1
                and not any(c in chunk.text.lower() for c in CRASH), chunk.text[-2000:])
        check_stats(t, tag, chunk, list(range(6)))
        for why in chunk.fields("REFUSED"):
            t.check(f"{tag}: a refusal says why", bool(why and why[0]), repr(why))
        held, loaded = chunk.fields("HELD"), chunk.fields("LOADED")
        refused = chunk.fields("REFUSED")
        t.check(f"{tag}: the procedures changed it ({len(refused)} of 8 refused)",
                held and (held != chunk.fields("BEFORE") or len(refused) == 8),
                f"{chunk.fields('BEFORE')} then {held}")
        t.check(f"{tag}: what the procedures changed stays (saved as XCF and loaded back)",
                held and held == loaded, f"{held} then {loaded}")
        t.check(f"{tag}: the export wrote its CSV or said why",
                (s.tmp / f"{tag[0]}.csv").exists() or refused)


if __name__ == "__main__":
    main()
