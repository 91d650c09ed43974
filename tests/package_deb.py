# SPDX-License-Identifier: GPL-3.0-or-later
"""The Debian package, installed as a user installs it, in a stock GIMP 3.

Builds the packages in the GIMP 3 root that GH_GIMP3 names (3.0: Debian 13,
3.2: Debian testing) with scripts/build-deb.sh (which installs the build
dependencies there and runs that root's lintian: no error, no warning but
those debian/*.lintian-overrides explain), installs them with apt into a clean copy of that root
(an overlay over it, gone afterwards: nothing of the repository's builds is
installed there), and runs every
procedure in that GIMP's own gimp-console-3 with a fresh profile and no
plug-in folder of its own, on testimages/: the statistics equal that GIMP's
gimp-drawable-histogram, each apply changes the pixels as it should, the
GEGL module's equalize, appended as a live filter and merged, equals the
procedure's, every
file written exists and loads, and the installed CLI gives the plug-in's
numbers and the package's version; the manual page and the AppStream
metadata are in the packages.  Reports itself skipped (77) where the root is not set up or this
is not root (the root needs it).

Usage: package_deb.py [DIR]   (GH_GIMP3 in the environment: 3.0 or 3.2)
DIR: packages already built for that root (scripts/build-deb.sh's
out/deb/gimp3 or gimp32), tested instead of building them.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV_SCRIPT = ROOT / "scripts" / "gimp3-env.sh"
VERSION = os.environ.get("GH_GIMP3", "3.0")
TARGET = {"3.0": "gimp3", "3.2": "gimp32"}.get(VERSION)
IMAGES = ["astronaut.png", "camera.png", "chelsea.png", "coffee.png", "coins.png"]
PLUGIN = "/usr/lib/x86_64-linux-gnu/gimp/3.0/plug-ins/gpu-histogram/gpu-histogram"
MODULE = "/usr/lib/x86_64-linux-gnu/gegl-0.4/gpu-histogram-gegl.so"
PROCEDURES = ["plug-in-gpu-histogram", "plug-in-gpu-histogram-equalize",
              "plug-in-gpu-histogram-binarize", "plug-in-gpu-histogram-export",
              "plug-in-gpu-histogram-clahe", "plug-in-gpu-histogram-match",
              "plug-in-gpu-histogram-multi-otsu", "plug-in-gpu-histogram-batch"]

# Run by gimp-console-3's Python-Fu inside the root, in the folder holding
# copies of the test images.  Prints "OK|name" or "FAIL|name|detail" per
# check, "BACKEND|..." and "PGM|..." (the value statistics of mask.pgm, for
# the CLI's); the test reads them.
GIMP_SCRIPT = r'''
import glob, os
import gi
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, Gio, GObject
pdb = Gimp.get_pdb()
IMAGES = %(images)r
PROCEDURES = %(procedures)r

def check(name, ok, detail=""):
    print(("OK|%%s" %% name) if ok else ("FAIL|%%s|%%s" %% (name, detail)), flush=True)

def load(path):
    return Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(path))

def call(name, img=None, **props):
    proc = pdb.lookup_procedure(name)
    cfg = proc.create_config()
    if img is not None:
        cfg.set_property("image", img)
        cfg.set_core_object_array("drawables", img.get_layers()[:1])
    for k, v in props.items():
        cfg.set_property(k.replace("_", "-"), v)
    res = proc.run(cfg)
    if res.index(0) != Gimp.PDBStatusType.SUCCESS:
        raise RuntimeError("%%s: %%s" %% (name, res.index(0)))
    return res

def doubles(v):
    return Gimp.value_dup_double_array(GObject.Value(Gimp.DoubleArray.__gtype__, v))

def stats(img):
    res = call("plug-in-gpu-histogram", img)
    return res.index(1), doubles(res.index(2)), doubles(res.index(3))

def close(a, b):
    return abs(a - b) <= max(1e-6 * abs(b), 1e-6)

for p in PROCEDURES:
    check("registered from the system folder: " + p, pdb.lookup_procedure(p) is not None)

# Statistics: every channel the image has, against GIMP's own histogram.
for name in IMAGES:
    img = load(name)
    drw = img.get_layers()[0]
    backend, st, hist = stats(img)
    check(name + ": backend named", backend.startswith(("cpu: ", "cuda: ")), backend)
    print("BACKEND|" + backend, flush=True)
    chans = [0] + ([1, 2, 3, 5] if drw.is_rgb() else [])
    bad = []
    for c in chans:
        ok, mean, std, median, pixels, count, pct = drw.histogram(Gimp.HistogramChannel(c), 0.0, 1.0)
        got = (st[c * 7], st[c * 7 + 3], st[c * 7 + 4], st[c * 7 + 5])
        want = (count, mean, median, std)
        if not all(close(g, w) for g, w in zip(got, want)):
            bad.append("channel %%d: %%r != GIMP %%r" %% (c, got, want))
        if abs(sum(hist[c * 256:(c + 1) * 256]) - st[c * 7]) > 0.5:
            bad.append("channel %%d: histogram does not sum to its count" %% c)
    check(name + ": statistics = gimp-drawable-histogram", not bad, "; ".join(bad))
    img.delete()

# The P5 image the installed CLI reads too: its value statistics.
img = load("mask.pgm")
print("PGM|" + ",".join("%%.17g" %% x for x in stats(img)[1][0:7]), flush=True)
img.delete()

def distinct(img, channel):
    """The levels in use in `channel` of the first layer."""
    return [b for b in range(256) if stats(img)[2][channel * 256 + b] > 0]

# Equalize (each channel): the value histogram spreads to the top level.
img = load("camera.png")
before = stats(img)[1]
call("plug-in-gpu-histogram-equalize", img, mode=0)
after = stats(img)[1]
check("equalize: the image changes, its maximum reaches 255",
      after[3] != before[3] and after[2] == 255, "mean %%r -> %%r, max %%r" %% (before[3], after[3], after[2]))
Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, img, Gio.File.new_for_path("out/camera-eq.png"), None)
img.delete()

# The GEGL module from GEGL's system folder: equalize as a live filter
# (listed, pixels unchanged), merged, gives the procedure's pixels.
def pixels(img):
    layer = img.get_layers()[0]
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    return layer.get_buffer().get(rect, 1.0, "Y' u8", Gegl.AbyssPolicy.NONE)

Gegl.init(None)
check("the GEGL module's operations are known", Gegl.has_operation("gpu-histogram:equalize"))
img, want = load("camera.png"), load("camera.png")
layer = img.get_layers()[0]
before = pixels(img)
flt = Gimp.DrawableFilter.new(layer, "gpu-histogram:equalize", "equalize")
flt.update()
layer.append_filter(flt)
check("equalize as a live filter: listed, pixels unchanged",
      [f.get_operation_name() for f in layer.get_filters()] == ["gpu-histogram:equalize"]
      and pixels(img) == before)
layer.merge_filters()
call("plug-in-gpu-histogram-equalize", want, mode=0)
check("the live filter merged = plug-in-gpu-histogram-equalize, byte for byte",
      not layer.get_filters() and pixels(img) == pixels(want) != before)
img.delete(); want.delete()

# Binarize (Otsu on value, a gray photo): the threshold returned, two
# levels left.
img = load("coins.png")
otsu = stats(img)[1][6]
t = call("plug-in-gpu-histogram-binarize", img, channel=0, threshold=-1).index(1)
levels = distinct(img, 0)
check("binarize: the Otsu threshold, then only 0 and 255", t == otsu and levels == [0, 255],
      "threshold %%r (Otsu %%r), levels %%r" %% (t, otsu, levels[:10]))
img.delete()

# Export: the CSV file, a header and 256 rows.
img = load("chelsea.png")
call("plug-in-gpu-histogram-export", img, filename=Gio.File.new_for_path("out/chelsea.csv"))
rows = open("out/chelsea.csv").read().splitlines() if os.path.exists("out/chelsea.csv") else []
check("export: the CSV has a header and 256 levels", len(rows) == 257 and rows[0].startswith("bin,"),
      "%%d lines" %% len(rows))
img.delete()

# CLAHE (luminance): pixels change.
img = load("coffee.png")
before = stats(img)[1]
call("plug-in-gpu-histogram-clahe", img, clip_limit=2.0, tiles_x=8, tiles_y=8, mode=1)
after = stats(img)[1]
check("clahe: the image changes", after[3:6] != before[3:6], "mean %%r -> %%r" %% (before[3], after[3]))
img.delete()

# Match camera to coins: the value histogram moves towards the reference's.
img, ref = load("camera.png"), load("coins.png")
want = stats(ref)[1][3]
before = stats(img)[1][3]
cfg_ref = ref.get_layers()[0]
call("plug-in-gpu-histogram-match", img, reference=cfg_ref, mode=0)
after = stats(img)[1][3]
check("match: the mean moves to the reference's", abs(after - want) < abs(before - want) and abs(after - want) < 3,
      "mean %%r -> %%r, reference %%r" %% (before, after, want))
img.delete(); ref.delete()

# Multi-Otsu, 3 classes on value, posterized: 3 levels left.
img = load("camera.png")
call("plug-in-gpu-histogram-multi-otsu", img, channel=0, classes=3, apply=1)
levels = distinct(img, 0)
check("multi-otsu: posterized to 3 levels", len(levels) == 3, "levels %%r" %% levels[:10])
img.delete()

# Batch: equalize every image into out/batch, with a statistics CSV.
call("plug-in-gpu-histogram-batch", pattern="*.png", operation=1,
     output_dir=Gio.File.new_for_path("out/batch"),
     stats_csv=Gio.File.new_for_path("out/batch/stats.csv"))
written = sorted(os.path.basename(p) for p in glob.glob("out/batch/*.png"))
check("batch: one result per image", written == sorted(IMAGES), "%%r" %% written)
csv = open("out/batch/stats.csv").read().splitlines() if os.path.exists("out/batch/stats.csv") else []
check("batch: statistics rows for every image", all(any(n in l for l in csv) for n in IMAGES),
      "%%d lines" %% len(csv))

# Every file written loads, with its source's size.
for out, src in [("out/camera-eq.png", "camera.png")] + [("out/batch/" + n, n) for n in IMAGES]:
    try:
        a, b = load(out), load(src)
        check("loads: " + out, (a.get_width(), a.get_height()) == (b.get_width(), b.get_height()))
        a.delete(); b.delete()
    except Exception as e:
        check("loads: " + out, False, str(e))
print("END", flush=True)
''' % {"images": IMAGES, "procedures": PROCEDURES}


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(77)


class Tally:
    def __init__(self):
        self.failed = 0

    def check(self, name, ok, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok or not detail else f": {detail}"),
              flush=True)
        self.failed += not ok


def env_script(*args, **kw):
    return subprocess.run(["bash", str(ENV_SCRIPT), *args], env=dict(os.environ, GH_GIMP3=VERSION),
                          capture_output=True, text=True, **kw)


def main():
    if TARGET is None:
        print(f"GH_GIMP3={VERSION}: 3.0 or 3.2")
        return 1
    if os.geteuid() != 0:
        skip("needs root (the GIMP 3 root, an overlay, apt)")
    if env_script("ready").returncode != 0:
        skip(f"GIMP {VERSION}: its root {env_script('why').stdout.strip()}")
    root = env_script("root").stdout.strip()
    t = Tally()
    tmp = Path(tempfile.mkdtemp(prefix="package_deb-", dir="/tmp"))
    try:
        start = time.monotonic()
        if len(sys.argv) > 1:
            debs_dir, log = Path(sys.argv[1]).resolve(), f"given in {sys.argv[1]}"
        else:
            # The build: the engine's suite runs in CI's own build (nocheck);
            # one kernel architecture shows the CUDA backend packaged as
            # well as the release's seven do, with a seventh of the kernels
            # to compile.
            r = subprocess.run(["bash", str(ROOT / "scripts" / "build-deb.sh"), "-o", str(tmp / "deb"),
                                TARGET], env=dict(os.environ, DEB_BUILD_OPTIONS="nocheck",
                                                  GH_GPU_ARCHS=os.environ.get("GH_GPU_ARCHS", "75")),
                               capture_output=True, text=True, timeout=1200)
            debs_dir, log = tmp / "deb" / TARGET, r.stdout[-3000:] + r.stderr[-3000:]
        built = time.monotonic() - start
        if len(sys.argv) == 1:
            # build-deb.sh ran the root's lintian on every package: its
            # version line and its tags, from the build's log.
            blog = ROOT / "build-deb" / TARGET / "build.log"
            lines = blog.read_text(errors="replace").splitlines() if blog.exists() else []
            ran = [x[len("build-deb: "):] for x in lines if x.startswith("build-deb: lintian ")]
            tags = [x for x in lines if x[:3] in ("E: ", "W: ", "I: ", "X: ", "P: ")]
            print("\n".join(["lintian tags:"] + tags) if tags else "lintian: no tags")
            t.check(f"{ran[0] if ran else 'lintian'}: no error and no warning on the packages",
                    ran and not any(x[:3] in ("E: ", "W: ") for x in tags), "\n".join(tags) or log)
        debs = {p.name.split("_")[0]: p for p in debs_dir.glob("*.deb")}
        t.check(f"the packages build ({built:.0f} s)" if len(sys.argv) == 1 else "the packages are there",
                {"gimp-plugin-gpu-histogram", "gpu-histogram-cli"} <= set(debs), log)
        if t.failed:
            return 1
        plugin_deb = debs["gimp-plugin-gpu-histogram"]
        files = subprocess.run(["dpkg-deb", "-c", str(plugin_deb)], capture_output=True, text=True).stdout
        t.check("the plug-in goes to GIMP 3's system plug-in folder", "." + PLUGIN in files, files)
        t.check("the GEGL module goes to GEGL's system module folder", "." + MODULE in files, files)
        t.check("the AppStream metadata goes to /usr/share/metainfo",
                "./usr/share/metainfo/org.gimp.GIMP.gpu_histogram.metainfo.xml" in files, files)
        cli_files = subprocess.run(["dpkg-deb", "-c", str(debs["gpu-histogram-cli"])],
                                   capture_output=True, text=True).stdout
        t.check("the CLI's manual page is in its package",
                "./usr/share/man/man1/gpu-histogram-cli.1.gz" in cli_files, cli_files)
        deb_version = subprocess.run(["dpkg-deb", "-f", str(debs["gpu-histogram-cli"]), "Version"],
                                     capture_output=True, text=True).stdout.strip()
        depends = subprocess.run(["dpkg-deb", "-f", str(plugin_deb), "Depends"],
                                 capture_output=True, text=True).stdout.strip()
        print(f"Depends: {depends}")
        t.check("it depends on gimp (>= 3.0) and libgimp-3.0-0 (shlibs)",
                "gimp (>= 3.0)" in depends and "libgimp-3.0-0" in depends, depends)

        # The clean root: an overlay over GIMP's root, gone with the mount
        # namespace.  apt installs both packages there; GIMP then runs with
        # a fresh profile (GIMP3_DIRECTORY, HOME), in a copy of the images.
        work = tmp / "run"
        (work / "out").mkdir(parents=True)
        for name in IMAGES:
            shutil.copy(ROOT / "testimages" / name, work / name)
        pgm = ROOT / "tests" / "fixtures" / "gimp" / "mask_ellipse_chelsea.pgm"
        shutil.copy(pgm, work / "mask.pgm")
        (work / "script.py").write_text(GIMP_SCRIPT)
        ov = tmp / "overlay"
        for d in ("upper", "work", "merged"):
            (ov / d).mkdir(parents=True)
        script = r'''
set -e
unset GH_CUDA
ov=$1 root=$2 work=$3 env_script=$4 plugin=$5
mount -t overlay overlay -o "lowerdir=$root,upperdir=$ov/upper,workdir=$ov/work" "$ov/merged"
export GH_GIMP3_ROOT=$ov/merged
shift 5
inside () { bash "$env_script" run "$@"; }
cd "$work"
inside env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" \
  > apt.log 2>&1 || { tail -20 apt.log; exit 1; }
echo "INSTALLED|$(inside dpkg -L gimp-plugin-gpu-histogram | grep -c /gpu-histogram/gpu-histogram)"
inside ldd "$plugin" | sed 's/^/LDD|/'
inside find /usr /opt -name 'libcudart*' -o -name nvcc | sed 's/^/CUDA-IN-ROOT|/'
inside gpu-histogram-cli mask.pgm 2>&1 | sed 's/^/CLI|/'
inside gpu-histogram-cli --version 2>&1 | sed 's/^/VERSION|/'
inside gpu-histogram-cli --backend cuda mask.pgm 2>&1 >/dev/null | sed 's/^/CUDA-ASKED|/'
HOME=$work/home GIMP3_DIRECTORY=$work/profile inside timeout 300 \
  gimp-console-3 -i --batch-interpreter=python-fu-eval -b - --quit < script.py 2>&1
grep 'plug-in-def .*gpu-histogram/gpu-histogram' "$work/profile/pluginrc" | sed 's/^/PLUGINRC|/' || true
'''
        start = time.monotonic()
        r = subprocess.run(["unshare", "-m", "bash", "-c", script, "package_deb", str(ov), root,
                            str(work), str(ENV_SCRIPT), PLUGIN,
                            str(debs["gimp-plugin-gpu-histogram"]), str(debs["gpu-histogram-cli"])],
                           capture_output=True, text=True, timeout=480,
                           env=dict(os.environ, GH_GIMP3=VERSION))
        ran = time.monotonic() - start
        out = r.stdout + r.stderr
        lines = out.splitlines()

        def field(tag):
            return [line.split("|", 1)[1] for line in lines if line.startswith(tag + "|")]
        t.check(f"apt installs both packages in a clean root, GIMP runs ({ran:.0f} s)",
                field("INSTALLED") == ["1"] and "END" in lines, out[-4000:])
        if t.failed:
            return 1
        ldd = field("LDD")
        t.check(f"the installed plug-in's {len(ldd)} libraries all resolve, no CUDA runtime among them",
                ldd and not any("not found" in x or "libcudart" in x for x in ldd), "\n".join(ldd))
        t.check("the clean root has no CUDA toolkit (no nvcc, no libcudart)", not field("CUDA-IN-ROOT"),
                "\n".join(field("CUDA-IN-ROOT")))
        for line in lines:
            if line.startswith(("OK|", "FAIL|")):
                parts = line.split("|", 2)
                t.check("GIMP " + VERSION + ": " + parts[1], parts[0] == "OK",
                        parts[2] if len(parts) > 2 else "")
        backends = set(field("BACKEND"))
        print(f"backend: {', '.join(sorted(backends))}")
        # pluginrc names the system folder as ${gimp_plug_in_dir}.
        rc = field("PLUGINRC")
        t.check("GIMP found the plug-in in its system folder (pluginrc), nowhere else",
                len(rc) == 1 and ("${gimp_plug_in_dir}/plug-ins/gpu-histogram/gpu-histogram" in rc[0]
                                  or PLUGIN in rc[0]), "\n".join(rc))

        # The installed CLI on a P5 image, against the plug-in on the same file.
        cli = field("CLI")
        print("CLI:\n  " + "\n  ".join(cli))
        value = [x.split(",") for x in cli if x.startswith("value,")]
        pgm = [float(x) for x in field("PGM")[0].split(",")] if field("PGM") else []
        # CLI columns: channel,count,pixels,percentile,min,max,mean,median,std_dev,otsu;
        # the plug-in's: count, min, max, mean, median, std-dev, Otsu.
        got = [float(value[0][i]) for i in (1, 4, 5, 6, 7, 8, 9)] if value else []
        t.check("the installed CLI prints the plug-in's statistics of the same P5 file",
                any(x.startswith("backend: ") for x in cli) and len(got) == 7 and len(pgm) == 7
                and all(abs(a - b) <= max(1e-6 * abs(b), 1e-6) for a, b in zip(got, pgm)),
                f"CLI {got}, plug-in {pgm}")
        version = field("VERSION")
        t.check("the installed CLI's --version is the package's upstream version",
                version == [f"gpu-histogram-cli {deb_version.split('-')[0]}"],
                f"{version}, package {deb_version}")
        # No GPU here: asked for one, the CLI says why not in one line.
        asked = field("CUDA-ASKED")
        t.check("--backend cuda without a GPU: one line saying why, then the CPU",
                len(asked) == 1 and asked[0].startswith("gpu-histogram: ")
                and asked[0].endswith("; using the CPU"), "\n".join(asked))
        print(f"  {asked[0] if asked else ''}")
        if t.failed == 0:
            print(f"PASS: {VERSION}: build {built:.0f} s, install and GIMP {ran:.0f} s")
        return 1 if t.failed else 0
    except subprocess.TimeoutExpired as e:
        t.check(f"{' '.join(map(str, e.cmd[:3]))}... ends within {e.timeout} s", False)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
