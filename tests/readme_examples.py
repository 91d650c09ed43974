#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The examples of README.md and doc/*.md, run as a reader would run them, in
one host: every fenced block right after a `<!-- test: HOST NAME -->` line
whose HOST is this one is run by bash in a fresh folder holding photo.png
(chelsea) and photos/*.png (testimages/).  HOST gimp2 or gimp3: HOME is a
private folder whose default GIMP profile (~/.config/GIMP/2.10, 3.0 or
3.2) has the built plug-in installed; where GIMP 3 runs inside an
environment of scripts/gimp3-env.sh, `gimp-console-3` on the PATH is a
wrapper that runs it there.  HOST cli: `gpu-histogram-cli` on the PATH is
the built CLI (as the Debian package installs it).  NAME says what the
example must have done:

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
  stretch    wrote photo-stretch.png: each channel stretched between its 1st
             and 99th percentiles (parity_beyond.stretch_model)
  batchclahe photos/clahe/ has every photo, and stats.csv rows
  pyfu       stats, then clahe (one Python-Fu run does both)
  folder     photos/equalized/ has every photo (the CLI's %n)
  jpeg       wrote photo-eq.jpg, a JPEG of the photo's size
  tour       stats, equalize, binarize, clahe and folder (the README's CLI)

The CLI's stats are its printed table's value row, its binarize and
multiotsu lines "threshold: T" and "thresholds: A,B".  No example may
print an execution error, and every host's run also fails where a fenced
block of README.md or doc/*.md that runs gimp-console, the CLI, Script-Fu
or Python-Fu has no marker: no example escapes the tests.  Only blocks
that cannot run here (installing packages, the quick start) go unmarked.

Usage: readme_examples.py [--host gimp2|gimp3|cli] PATH-TO-gpu-histogram
       (for cli: PATH-TO-gpu-histogram-cli)
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from plugin_apply import gimp_luminance_bins, png
from plugin_beyond import check_luminance, clahe, match_levels, posterized
from plugin_gimp import ROOT, Tally, parse_args, require_gimp

# Host "scale": doc/scale.md's recipes, run by tests/scale_parallel.py
# (they need an sshd and a Slurm of the test's own).
MARK = re.compile(r"^<!-- test: (gimp2|gimp3|cli|scale) (\w+) -->$")
# What makes a fenced block an example that a test must run.
RUNNABLE = re.compile(r"gimp-console|gpu-histogram-cli(?![\w.-])|script-fu|python-fu|plug-in-gpu-histogram"
                      r"|from gi\.repository", re.IGNORECASE)


def sources():
    """The documents whose examples run: README.md, then doc/*.md."""
    return [ROOT / "README.md"] + sorted((ROOT / "doc").glob("*.md"))


def blocks():
    """[(where, host, name, code)] of every fenced block of the documents
    (host and name None when it has no marker), and markers not followed
    by a block (code None)."""
    out = []
    for path in sources():
        lines = path.read_text().splitlines()
        rel = path.relative_to(ROOT)
        i = 0
        while i < len(lines):
            m = MARK.match(lines[i])
            if m and not (i + 1 < len(lines) and lines[i + 1].startswith("```")):
                out.append((f"{rel}:{i + 1}", m.group(1), m.group(2), None))
            if lines[i].startswith("```"):
                end = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("```")), len(lines))
                m = MARK.match(lines[i - 1]) if i else None
                out.append((f"{rel}:{i + 1}", m and m.group(1), m and m.group(2),
                            "\n".join(lines[i + 1:end])))
                i = end
            i += 1
    return out


def examples(host):
    """[(where, name, code)] of the blocks marked for this host, in order."""
    return [(w, n, c) for w, h, n, c in blocks() if h == host.name]


def unmarked():
    """Where a fenced block runs something a test should run, unmarked."""
    return [w for w, h, n, c in blocks() if h is None and c is not None and RUNNABLE.search(c)]


def gegl_module_of(plugin):
    """The GEGL module built beside a GIMP 3 plug-in: in the environment's
    nested build for build/gpu-histogram-gimp3 (gimp3-env) and -gimp32
    (gimp32-env), else in the build of build/plugin/gimp3/gpu-histogram."""
    plugin = Path(plugin).resolve()
    for suffix in ("gimp32", "gimp3"):
        if plugin.name == f"gpu-histogram-{suffix}":
            return plugin.parent / f"{suffix}-env" / "gegl" / "gpu-histogram-gegl.so"
    return plugin.parents[2] / "gegl" / "gpu-histogram-gegl.so"


class CliHost:
    """The CLI as a host of the examples: GIMP 2.10's luminance rule (its default)."""
    name, label, gimp3, luminance = "cli", "CLI", False, "perceptual"


def main():
    if "--host" in sys.argv and sys.argv[sys.argv.index("--host") + 1:][:1] == ["cli"]:
        sys.argv[sys.argv.index("--host"):sys.argv.index("--host") + 2] = []
        if len(sys.argv) != 2:
            sys.exit("usage: readme_examples.py --host cli PATH-TO-gpu-histogram-cli")
        host, plugin = CliHost(), Path(sys.argv[1]).resolve()
        try:
            import cv2  # noqa: F401
            import skimage  # noqa: F401
        except ImportError as e:
            print(f"cannot import cv2/scikit-image ({e}): skipping")
            sys.exit(77)
        probe = subprocess.run([str(plugin), str(ROOT / "testimages" / "chelsea.png")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if "without GEGL" in probe.stdout:
            print(f"{probe.stdout.strip()}: the examples read PNG; skipping")
            sys.exit(77)
    else:
        host, plugin = parse_args("readme_examples.py")
        require_gimp(host)
    import numpy as np
    t = Tally()
    todo = examples(host)
    t.check(f"the documents have {host.label} examples", len(todo) >= (3 if host.name == "cli" else 5),
            f"{len(todo)} found")
    loose = unmarked()
    t.check("every example of README.md and doc/*.md is marked for a test", not loose,
            "no <!-- test: HOST NAME --> before the blocks at " + ", ".join(loose))
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

        if host.name == "cli":
            bin_dir = base / "bin"
            bin_dir.mkdir()
            (bin_dir / "gpu-histogram-cli").symlink_to(plugin)
            env["PATH"] = f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"
        else:
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
            if host.gimp3:
                # The live filters' module where GEGL looks in a user's
                # data folder, where -Dgimp_plugin_install=user puts it.
                module = gegl_module_of(plugin)
                t.check("the GEGL module of this GIMP 3 build is there", module.exists(),
                        str(module))
                modules = home / ".local" / "share" / "gegl-0.4" / "plug-ins"
                modules.mkdir(parents=True, exist_ok=True)
                if module.exists():
                    shutil.copy2(module, modules / module.name)

        run_all(t, host, todo, base, bash, np)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    t.finish()


def run_all(t, host, todo, base, bash, np):
    """Each example in a fresh folder with photo.png and photos/, then its check."""
    photo = ROOT / "testimages" / "chelsea.png"
    photos = sorted((ROOT / "testimages").glob("*.png"))
    for k, (where, name, code) in enumerate(todo):
        what = f"{where} {host.label} example ({name})"
        if code is None:
            t.check(what, False, "no fenced block after its marker")
            continue
        work = base / f"ex{k}"
        (work / "photos").mkdir(parents=True)
        shutil.copy(photo, work / "photo.png")
        for f in photos:
            shutil.copy(f, work / "photos" / f.name)
        # The documents' paths into the repository (cp plugin/examples/...).
        code = code.replace("plugin/examples/", f"{ROOT}/plugin/examples/")
        rc, log = bash(code, work)
        bad = "execution error" in log or "Traceback" in log
        t.check(f"{what}: ran, no error", rc == 0 and not bad, f"exit {rc}\n{log}")
        check(t, what, name, work, log, host, np)


def check(t, what, name, work, log, host, np):
    a = png(work / "photo.png")
    value = a.max(axis=2) if a.ndim == 3 else a
    if name in ("tour", "pyfu"):
        for sub in (("stats", "equalize", "binarize", "clahe", "folder") if name == "tour"
                    else ("stats", "clahe")):
            check(t, what, sub, work, log, host, np)
    elif name == "stats" and host.name == "cli":
        m = re.search(r"^value,(?:[^,\n]*,){5}([0-9.]+),", log, re.MULTILINE)
        t.check(f"{what}: value mean = numpy's", m is not None and abs(float(m.group(1)) - value.mean()) < 1e-5,
                log if m is None else f"{m.group(1)} != {value.mean()}")
    elif name == "stats":
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
        m = re.search(r"(?:Otsu threshold |^threshold: )([0-9]+)", log, re.MULTILINE)
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
        m = re.search(r"(?:Multi-Otsu thresholds |^thresholds: )([0-9]+)[ ,]([0-9]+)$", log, re.MULTILINE)
        got = [int(m.group(1)), int(m.group(2))] if m else None
        t.check(f"{what}: printed scikit-image's thresholds {want}", got == want, log if m is None else str(got))
        path = work / "photo-poster.png"
        poster = png(path) if path.exists() else None
        t.check(f"{what}: photo-poster.png posterized by them",
                poster is not None and (poster == posterized(lum, want, 3)[..., None]).all(),
                "not written" if poster is None else "pixels differ")
    elif name == "stretch":
        from parity_beyond import stretch_model
        path = work / "photo-stretch.png"
        got = png(path) if path.exists() else None
        want = stretch_model(a, 1, 99)[0]
        t.check(f"{what}: photo-stretch.png = each channel stretched from its 1st to 99th percentile",
                got is not None and got.shape == a.shape and (got == want).all(),
                "not written" if got is None else f"{(got != want).sum()} samples differ")
    elif name in ("batch", "script", "batchclahe"):
        out = work / "photos" / {"batch": "binarized", "script": "equalized",
                                 "batchclahe": "clahe"}[name]
        names = sorted(p.name for p in out.glob("*.png"))
        want = sorted(p.name for p in (work / "photos").glob("*.png"))
        stats = out / ("statistics.csv" if name == "script" else "stats.csv")
        rows = list(csv.DictReader(open(stats))) if stats.exists() else []
        t.check(f"{what}: every photo written, statistics rows", names == want and
                {Path(r["file"]).name for r in rows} == set(want), f"{names}, {len(rows)} rows")
    elif name == "folder":
        out = work / "photos" / "equalized"
        names = sorted(p.name for p in out.glob("*.png"))
        want = sorted(p.name for p in (work / "photos").glob("*.png"))
        t.check(f"{what}: every photo equalized into photos/equalized/", names == want, str(names))
    elif name == "jpeg":
        import cv2
        got = cv2.imread(str(work / "photo-eq.jpg"), cv2.IMREAD_UNCHANGED)
        t.check(f"{what}: photo-eq.jpg is a JPEG of the photo's size",
                got is not None and got.shape == a.shape and (work / "photo-eq.jpg").read_bytes()[:2] == b"\xff\xd8",
                "not written" if got is None else str(got.shape))
    else:
        t.check(f"{what}: known check", False, f"no check named {name}")


if __name__ == "__main__":
    main()
