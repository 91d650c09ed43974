#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The README's gimp-console examples, run as a reader would run them, in one
GIMP host: every fenced block right after a `<!-- test: HOST NAME -->` line
whose HOST is this one is run by bash in a fresh folder holding photo.png
(chelsea) and photos/*.png (testimages/), with HOME in a private folder
whose default GIMP profile (~/.config/GIMP/2.10, 3.0 or 3.2) has the built
plug-in installed.  Where GIMP 3 runs inside an environment of
scripts/gimp3-env.sh, `gimp-console-3` on the PATH is a wrapper that runs
it there.  NAME says what the example must have done:

  stats      printed "<backend>: value mean M, luminance Otsu T", M = numpy's
  equalize   wrote photo-eq.png, same size, not the same pixels
  binarize   printed "Otsu threshold T"; photo-bw.png holds only 0 and 255,
             white exactly where the host's luminance bin is above T
  export     wrote photo-histogram.csv: 256 rows, value column = numpy's counts
  batch      photos/binarized/ has every photo binarized, and stats.csv rows
  script     photos/equalized/ has every photo and statistics.csv
  clahe      wrote photo-clahe.png: luminance moved to OpenCV's CLAHE of it,
             hue kept (plugin_beyond.check_luminance)
  match      wrote photo-matched.png: scikit-image's match_histograms to
             photos/astronaut.png, rounded to nearest (plugin_beyond)
  multiotsu  printed "Multi-Otsu thresholds A B" = scikit-image's
             threshold_multiotsu of the host's luminance; photo-poster.png
             posterized by them
  batchclahe photos/clahe/ has every photo, and stats.csv rows

and no example may print an execution error.

Usage: readme_examples.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import csv
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from plugin_apply import gimp_luminance_bins, png
from plugin_beyond import check_luminance, clahe, match_levels, posterized
from plugin_gimp import ROOT, Tally, parse_args, require_gimp

MARK = re.compile(r"^<!-- test: (gimp2|gimp3) (\w+) -->$")


def examples(host):
    """[(name, code)] of the README blocks marked for this host, in order."""
    lines = (ROOT / "README.md").read_text().splitlines()
    out = []
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if not m or m.group(1) != host.name:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            out.append((m.group(2), None))
            continue
        end = next((k for k in range(i + 2, len(lines)) if lines[k].startswith("```")), None)
        out.append((m.group(2), "\n".join(lines[i + 2:end]) if end else None))
    return out


def main():
    host, plugin = parse_args("readme_examples.py")
    require_gimp(host)
    import numpy as np
    t = Tally()
    todo = examples(host)
    t.check(f"README has {host.label} examples", len(todo) >= 5, f"{len(todo)} found")
    base = Path(tempfile.mkdtemp(prefix="gh-readme-", dir="/tmp"))
    try:
        home = base / "home"
        home.mkdir()
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("GIMP2_", "GIMP3_", "XDG_")) and k != "DISPLAY"}
        env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
        if host.gimp3:
            env["BABL_LUT"] = "0"
            if host.env_script:
                # gimp-console-3 as the reader would type it, run in the root
                # (which keeps the folder, HOME and stdin).
                bin_dir = base / "bin"
                bin_dir.mkdir()
                wrapper = bin_dir / host.console
                wrapper.write_text(f"#!/bin/sh\nexec bash {host.env_script} run {host.console} \"$@\"\n")
                wrapper.chmod(0o755)
                env["PATH"] = f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"

        def bash(code, cwd, timeout=300):
            p = subprocess.run(["bash", "-c", code], cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=timeout)
            return p.returncode, p.stdout

        # The default profile, made by a first start, then the plug-in in it.
        first = (f"{host.console} -i --batch-interpreter=plug-in-script-fu-eval -b '(+ 1 1)' --quit"
                 if host.gimp3 else f"{host.console} -i -b '(gimp-quit 0)'")
        bash(first, base)
        # Each GIMP minor version has its own folder (GIMP 3.2: 3.2).
        made = sorted((home / ".config" / "GIMP").glob("[0-9]*"))
        t.check(f"{host.label}'s first start made its default profile", len(made) == 1,
                f"{[p.name for p in made]} in {home / '.config' / 'GIMP'}")
        profile = made[-1] if made else home / ".config" / "GIMP" / "none"
        (profile / "plug-ins" / "gpu-histogram").mkdir(parents=True, exist_ok=True)
        shutil.copy2(plugin, profile / "plug-ins" / "gpu-histogram" / "gpu-histogram")
        (profile / "scripts").mkdir(exist_ok=True)

        photo = ROOT / "testimages" / "chelsea.png"
        photos = sorted((ROOT / "testimages").glob("*.png"))
        for k, (name, code) in enumerate(todo):
            what = f"README {host.label} example {k + 1} ({name})"
            if code is None:
                t.check(what, False, "no fenced block after its marker")
                continue
            work = base / f"ex{k}"
            (work / "photos").mkdir(parents=True)
            shutil.copy(photo, work / "photo.png")
            for f in photos:
                shutil.copy(f, work / "photos" / f.name)
            # The README's paths into the repository (cp plugin/examples/...).
            code = code.replace("plugin/examples/", f"{ROOT}/plugin/examples/")
            rc, log = bash(code, work)
            bad = "execution error" in log or "Traceback" in log
            t.check(f"{what}: ran, no error", rc == 0 and not bad, f"exit {rc}\n{log}")
            check(t, what, name, work, log, host, np)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    t.finish()


def check(t, what, name, work, log, host, np):
    a = png(work / "photo.png")
    value = a.max(axis=2) if a.ndim == 3 else a
    if name == "stats":
        m = re.search(r"(?:cpu|cuda): [^\n]*?: value mean ([0-9.]+), luminance Otsu ([0-9.]+)", log)
        t.check(f"{what}: value mean = numpy's", m is not None and abs(float(m.group(1)) - value.mean()) < 1e-6,
                log if m is None else f"{m.group(1)} != {value.mean()}")
    elif name == "equalize":
        try:
            eq = png(work / "photo-eq.png")
            t.check(f"{what}: photo-eq.png written, changed", eq.shape == a.shape and (eq != a).any())
        except RuntimeError as e:
            t.check(f"{what}: photo-eq.png written", False, str(e))
    elif name == "binarize":
        m = re.search(r"Otsu threshold ([0-9]+)", log)
        try:
            bw = png(work / "photo-bw.png")
        except RuntimeError as e:
            t.check(f"{what}: photo-bw.png written", False, str(e))
            return
        if m is None:
            t.check(f"{what}: threshold printed", False, log)
            return
        want = np.where(gimp_luminance_bins(a, host.luminance) > int(m.group(1)), 255, 0)
        t.check(f"{what}: white exactly above the printed threshold",
                bw.shape == a.shape and (bw == want[..., None]).all(),
                f"{(bw != want[..., None]).sum()} samples differ" if bw.shape == a.shape else str(bw.shape))
    elif name == "export":
        path = work / "photo-histogram.csv"
        rows = list(csv.reader(open(path))) if path.exists() else []
        got = [float(r[1]) for r in rows[1:]]
        t.check(f"{what}: 256 levels, value = numpy's counts", len(rows) == 257
                and got == np.bincount(value.ravel(), minlength=256).tolist(), f"{len(rows)} rows")
    elif name == "clahe":
        got = png(work / "photo-clahe.png") if (work / "photo-clahe.png").exists() else None
        check_luminance(t, f"{what}: photo-clahe.png", a, got,
                        clahe(gimp_luminance_bins(a, host.luminance), 2.0, 8, 8), host.luminance)
    elif name == "match":
        path, ref = work / "photo-matched.png", png(work / "photos" / "astronaut.png")
        want = np.dstack([np.floor(match_levels(a[..., k], ref[..., k]) + 0.5) for k in range(3)])
        got = png(path) if path.exists() else None
        t.check(f"{what}: photo-matched.png = scikit-image's match_histograms, rounded",
                got is not None and got.shape == a.shape and (got == want).all(),
                "not written" if got is None else f"{(got != want).sum()} samples differ")
    elif name == "multiotsu":
        from skimage.filters import threshold_multiotsu
        lum = gimp_luminance_bins(a, host.luminance)
        want = threshold_multiotsu(lum, classes=3).astype(int).tolist()
        m = re.search(r"Multi-Otsu thresholds ([0-9]+) ([0-9]+)", log)
        got = [int(m.group(1)), int(m.group(2))] if m else None
        t.check(f"{what}: printed scikit-image's thresholds {want}", got == want, log if m is None else str(got))
        path = work / "photo-poster.png"
        poster = png(path) if path.exists() else None
        t.check(f"{what}: photo-poster.png posterized by them",
                poster is not None and (poster == posterized(lum, want, 3)[..., None]).all(),
                "not written" if poster is None else "pixels differ")
    elif name in ("batch", "script", "batchclahe"):
        out = work / "photos" / {"batch": "binarized", "script": "equalized",
                                 "batchclahe": "clahe"}[name]
        names = sorted(p.name for p in out.glob("*.png"))
        want = sorted(p.name for p in (work / "photos").glob("*.png"))
        stats = out / ("statistics.csv" if name == "script" else "stats.csv")
        rows = list(csv.DictReader(open(stats))) if stats.exists() else []
        t.check(f"{what}: every photo written, statistics rows", names == want and
                {Path(r["file"]).name for r in rows} == set(want), f"{names}, {len(rows)} rows")
    else:
        t.check(f"{what}: known check", False, f"no check named {name}")


if __name__ == "__main__":
    main()
