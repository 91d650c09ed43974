#!/usr/bin/env python3
"""The GEGL module's operations against the CLI, byte for byte.

    gegl_module.py BUILDDIR

BUILDDIR holds gegl/gpu-histogram-gegl.so, tests/gegl_run and
cli/gpu-histogram-cli of one build.  With GH_GIMP3_ENV and GH_GIMP3 set
(scripts/gimp3-env.sh) the checks run inside that GIMP 3 root, on its
nested build; GH_GIMP3_UNAVAILABLE: skipped (77), saying why.

Checks: the module loads (GEGL_PATH), lists its four operations with the
vocabulary's properties and defaults and a menu path; each operation on
the test images (8-bit PNG, gray and RGB, and with a varying alpha) gives
the CLI's bytes under GIMP 3's luminance rule (--luminance linear): what
the GIMP 3 procedures give on 8-bit layers.
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve().parent
IMAGES = HERE.parent / "testimages"

# What scripts and users rely on (issue 26): names, properties, defaults.
EXPECTED = {
    "gpu-histogram:equalize": {"mode": "each-channel"},
    "gpu-histogram:clahe": {"clip-limit": "2.000000", "tiles-x": "8",
                            "tiles-y": "8", "mode": "luminance"},
    "gpu-histogram:threshold": {"channel": "luminance",
                                "threshold": "-1"},
    "gpu-histogram:posterize": {"channel": "luminance",
                                "classes": "3"},
}

# (operation, properties, CLI output option, CLI options, colour only)
CASES = [
    ("equalize", ["mode=each-channel"], "--equalize",
     ["--equalize-mode", "channels"], False),
    ("equalize", ["mode=luminance"], "--equalize",
     ["--equalize-mode", "luminance"], False),
    ("clahe", [], "--clahe",
     ["--clahe-params", "2,8,8", "--equalize-mode", "luminance"], False),
    ("clahe", ["mode=each-channel", "clip-limit=3.5", "tiles-x=5",
               "tiles-y=3"], "--clahe",
     ["--clahe-params", "3.5,5,3", "--equalize-mode", "channels"], False),
    # Gray: the luminance is the gray level (the CLI's default there).
    ("threshold", [], "--binarize", [], False),
    ("threshold", ["channel=red", "threshold=100"], "--binarize",
     ["--channel", "red", "--threshold", "100"], True),
    ("posterize", [], "--posterize", ["--multi-otsu", "3"], False),
    ("posterize", ["channel=green", "classes=5"], "--posterize",
     ["--channel", "green", "--multi-otsu", "5"], True),
]
GRAY = {"camera", "coins"}


def run(cmd, env=None):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                       env=env)
    return p.returncode, p.stdout, p.stderr


def check_list(driver, env):
    rc, out, err = run([driver, "list"], env)
    if rc != 0:
        return [f"gegl_run list: exit {rc}: {err.strip()}"]
    ops, fails, current = {}, [], None
    for line in out.splitlines():
        if not line.startswith("  "):
            current, menu = line.split("\t")
            ops[current] = {}
            if not menu.startswith("<Image>/Filters/"):
                fails.append(f"{current}: menu path {menu!r}")
        else:
            name, _type, default = line.strip().split("\t")[:3]
            ops[current][name] = default
    if set(ops) != set(EXPECTED):
        fails.append(f"operations {sorted(ops)}, expected {sorted(EXPECTED)}")
    for op, props in EXPECTED.items():
        if ops.get(op) != props:
            fails.append(f"{op}: properties {ops.get(op)}, expected {props}")
    return fails


def differ(a, b):
    a, b = Path(a).read_bytes(), Path(b).read_bytes()
    if a == b:
        return None
    if len(a) != len(b):
        return f"sizes {len(a)} and {len(b)}"
    return f"{sum(x != y for x, y in zip(a, b))} bytes differ"


def main():
    if os.environ.get("GH_GIMP3_UNAVAILABLE"):
        print("SKIP:", os.environ["GH_GIMP3_UNAVAILABLE"])
        return SKIP
    build = Path(sys.argv[1]).resolve()
    if os.environ.get("GH_GIMP3_ENV") and not os.environ.get("GH_INSIDE"):
        # Inside the root, on its nested build.
        env = dict(os.environ, GH_INSIDE="1")
        return subprocess.run(["bash", env["GH_GIMP3_ENV"], "run", "python3",
                               __file__, str(build)], env=env).returncode
    driver, cli = build / "tests" / "gegl_run", build / "cli" / "gpu-histogram-cli"
    module = build / "gegl"
    for f in (driver, cli, module / "gpu-histogram-gegl.so"):
        if not f.exists():
            print(f"FAIL: {f} not built")
            return 1
    # GEGL_PATH replaces GEGL's own folder: both, for gegl:load.
    _, ops, _ = run(["pkg-config", "--variable=pluginsdir", "gegl-0.4"])
    env = dict(os.environ, GEGL_PATH=os.pathsep.join([str(module), ops.strip()]),
               BABL_TOLERANCE="0")
    _, version, _ = run(["pkg-config", "--modversion", "gegl-0.4"])
    print(f"GEGL {version.strip() or '?'}")
    start = time.time()
    fails = check_list(driver, env)
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # Every image and case through one gegl_run (GEGL starts once).
        lines, jobs = [], []
        for png in sorted(IMAGES.glob("*.png")):
            for alpha in ([], ["--alpha"]):
                stem = png.stem + ("-a" if alpha else "")
                src = tmp / f"{stem}.pnm"
                lines.append(["load", png, src] + alpha)
                for k, (op, props, out_opt, opts, colour) in enumerate(CASES):
                    if colour and png.stem in GRAY:
                        continue
                    mine = tmp / f"{stem}-{k}-gegl.pnm"
                    lines.append(["apply", f"gpu-histogram:{op}", png, mine]
                                 + alpha + props)
                    jobs.append((f"{stem} {op} {' '.join(props)}", src, mine,
                                 out_opt, opts))
        p = subprocess.run([str(driver), "batch"], env=env, text=True,
                           capture_output=True,
                           input="".join("\t".join(map(str, l)) + "\n"
                                         for l in lines))
        codes = p.stdout.split()
        if p.returncode or codes != ["0"] * len(lines) or "WARNING" in p.stderr:
            fails.append(f"gegl_run batch: exit {p.returncode}, statuses "
                         f"{codes}: {p.stderr.strip()}")
        for what, src, mine, out_opt, opts in jobs:
            theirs = mine.with_name(mine.name.replace("gegl", "cli"))
            rc, _, err = run([cli, "--backend", "cpu", "--luminance",
                              "linear", out_opt, theirs] + opts + [src])
            if rc:
                fails.append(f"{what}: CLI exit {rc}: {err.strip()}")
                continue
            d = differ(mine, theirs) if mine.exists() else "no result"
            n += 1
            print(f"{'ok  ' if not d else 'FAIL'} {what}" + (f": {d}" if d else ""))
            if d:
                fails.append(f"{what}: {d}")
    print(f"{n} comparisons in {time.time() - start:.1f} s")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
