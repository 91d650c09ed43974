#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scripts make the module's operations through GIMP's filter API.

    gegl_filter_api.py BUILDDIR

BUILDDIR is a GIMP 3 root's nested build (gegl/gpu-histogram-gegl.so,
plugin/gimp3/gpu-histogram, tests/gegl_run); GH_GIMP3_ENV and GH_GIMP3
name the root (scripts/gimp3-env.sh), GH_GIMP3_UNAVAILABLE: skipped (77),
saying why.

In one gimp-console-3 run (tests/gegl_filter_api_fu.py), with the module
in the user's GEGL folder and the plug-in in the profile: a script's
filter config of each operation declares every property of the module
(`gegl_run list`: name, label, blurb, default, range; mode and channel
as a choice of the values' nicks, numbered and labelled as the module's
enum values) while the module's types are unknown to the script's
process; then Python-Fu (Gimp.DrawableFilter.new, get_config,
set_property, update, append_filter) and Script-Fu
(gimp-drawable-filter-new, -configure, gimp-drawable-append-filter,
gimp-drawable-merge-filters; tests/gegl_filter_api.scm) each make each
operation with every property off its default, live (listed, pixels
unchanged; Python-Fu edits one property while live), merged, equal byte
for byte to the plug-in's procedure with the same parameters on an 8-bit
sRGB layer; match (GIMP keeps no filter with an aux input live) with a
second image's layer on its aux input, merged at once.  No GLib warning
or critical while the scripts run, and none at GIMP's start or exit but
the ones GIMP's batch mode prints itself.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve().parent
IMAGES = HERE.parent / "testimages"

# Per operation: its procedure, every property off its default, the one
# changed while live (Python-Fu), and whether it takes the aux input.
OPS = {
    "gpu-histogram:equalize": dict(procedure="plug-in-gpu-histogram-equalize",
                                   values={"mode": "luminance"},
                                   change=["mode", "each-channel"], aux=False),
    "gpu-histogram:clahe": dict(procedure="plug-in-gpu-histogram-clahe",
                                values={"clip-limit": 3.5, "tiles-x": 5, "tiles-y": 3,
                                        "mode": "each-channel"},
                                change=["tiles-x", 6], aux=False),
    "gpu-histogram:threshold": dict(procedure="plug-in-gpu-histogram-binarize",
                                    values={"channel": "red", "threshold": 100},
                                    change=["channel", "blue"], aux=False),
    "gpu-histogram:posterize": dict(procedure="plug-in-gpu-histogram-multi-otsu",
                                    values={"channel": "green", "classes": 4},
                                    change=["classes", 5], aux=False),
    "gpu-histogram:match": dict(procedure="plug-in-gpu-histogram-match",
                                values={"mode": "luminance"}, change=None, aux=True),
}
# What GLib prints for a warning or a critical: in GIMP's process and
# plug-ins ("LibGimp-CRITICAL **"), and through PyGObject in Python-Fu
# ("<string>:12: Warning: ...").
TROUBLE = ("-WARNING", "-CRITICAL", "is not registered", ": Warning: ")
# GIMP's batch mode prints these itself at its start and exit: a new
# profile's first start queries the Script-Fu interpreter without a
# display (GIMP 3.0), and --quit closes the python-eval plug-in's pipe
# and finalizes GIMP while plug-ins still hold their contexts.
GIMP_OWN = ("cannot open display", "gimp_wire_read(): unexpected EOF",
            "list of contexts not empty upon exit")
# And this whenever a plug-in's last flush as it exits finds GIMP's end
# of the pipe closed already: GIMP 3.0.4's file-png and script-fu, now and
# then.
LAST_FLUSH = "gimp_flush(): error: Broken pipe"


def module_specs(driver, env, fails):
    """{operation: [(name, type, default, range or values, label, blurb,
    values' labels)]}: `gegl_run list`, the module's own properties."""
    p = subprocess.run([str(driver), "list"], capture_output=True, text=True, env=env)
    if p.returncode:
        fails.append(f"gegl_run list: exit {p.returncode}: {p.stderr.strip()}")
        return {}
    specs, current = {}, None
    for line in p.stdout.splitlines():
        if not line.startswith("  "):
            current = line.split("\t")[0]
            specs[current] = []
        else:
            specs[current].append(line.strip().split("\t"))
    return specs


def check_spec(op, theirs, ours, fails):
    """GIMP's config of `op` in a script (theirs) against the module's
    properties (ours)."""
    if [p["name"] for p in theirs] != [p[0] for p in ours]:
        fails.append(f"{op}: a script sees {[p['name'] for p in theirs]}, "
                     f"the module has {[p[0] for p in ours]}")
        return
    for t, (name, kind, default, rng, label, blurb, *labels) in zip(theirs, ours):
        what = f"{op} {name}"
        if (t["label"], t["blurb"]) != (label, blurb):
            fails.append(f"{what}: label and blurb {t['label']!r}, {t['blurb']!r}; "
                         f"the module's {label!r}, {blurb!r}")
        if kind in ("gint", "gdouble"):
            lo, hi = map(float, rng.split(".."))
            if (t["type"], t["range"], t["default"]) != (kind, [lo, hi], float(default)):
                fails.append(f"{what}: {t['type']} {t['range']} default {t['default']}; "
                             f"the module's {kind} {rng} default {default}")
            continue
        values = [[nick, int(n), text] for (nick, n), text in
                  zip((v.split("=") for v in rng.split(",")), labels[0].split(","))]
        if (t["type"], t.get("values"), t["default"]) != ("gchararray", values, default):
            fails.append(f"{what}: {t['type']} {t.get('values')} default {t['default']}; "
                         f"the module's {kind} {values} default {default}")


def check_values(op, case, specs, fails):
    """Every property of `op` set, each off its default."""
    ours = {p[0]: p[2] for p in specs.get(op, [])}
    if set(case["values"]) != set(ours):
        fails.append(f"{op}: the cases set {sorted(case['values'])}, "
                     f"the module has {sorted(ours)}")
    for name, value in case["values"].items():
        if str(value) == ours.get(name) or (isinstance(value, float)
                                             and value == float(ours.get(name, "nan"))):
            fails.append(f"{op}: {name}={value} is its default")


def trouble(log, fails):
    """GLib's warnings and criticals in GIMP's output: none while the
    scripts run but LAST_FLUSH, none but those and GIMP_OWN before and
    after."""
    lines = log.splitlines()
    begin = next((k for k, l in enumerate(lines) if "gegl_filter_api_fu: begin" in l), None)
    end = next((k for k, l in enumerate(lines) if "gegl_filter_api_fu: end" in l), None)
    if begin is None or end is None:
        fails.append("the Python-Fu did not run to its end")
        begin, end = begin or 0, end or len(lines)
    for k, line in enumerate(lines):
        if not any(t in line for t in TROUBLE):
            continue
        if LAST_FLUSH not in line and (begin < k < end
                                       or not any(o in line for o in GIMP_OWN)):
            fails.append(f"GIMP printed: {line.strip()}")
        else:
            print(f"GIMP's own: {line.strip()}")


def main():
    if os.environ.get("GH_GIMP3_UNAVAILABLE"):
        print("SKIP:", os.environ["GH_GIMP3_UNAVAILABLE"])
        return SKIP
    build = Path(sys.argv[1]).resolve()
    if os.environ.get("GH_GIMP3_ENV") and not os.environ.get("GH_INSIDE"):
        env = dict(os.environ, GH_INSIDE="1")
        return subprocess.run(["bash", env["GH_GIMP3_ENV"], "run", "python3",
                               __file__, str(build)], env=env).returncode
    module = build / "gegl" / "gpu-histogram-gegl.so"
    plugin = build / "plugin" / "gimp3" / "gpu-histogram"
    driver = build / "tests" / "gegl_run"
    for f in (module, plugin, driver):
        if not f.exists():
            print(f"FAIL: {f} not built")
            return 1
    console = shutil.which("gimp-console-3")
    if not console:
        print("FAIL: no gimp-console-3 in this GIMP 3 root")
        return 1
    fails = []
    version = subprocess.run([console, "--version"], capture_output=True,
                             text=True).stdout.split()
    print(f"GIMP {version[-1] if version else '?'}")
    # Under /tmp: the roots see it at the same path.
    with tempfile.TemporaryDirectory(prefix="gh-filter-api-", dir="/tmp") as tmp:
        tmp = Path(tmp)
        folder = tmp / "data" / "gegl-0.4" / "plug-ins"
        folder.mkdir(parents=True)
        shutil.copy(module, folder)
        specs = module_specs(driver, dict(os.environ, GEGL_PATH=str(folder)), fails)
        for op, case in OPS.items():
            check_values(op, case, specs, fails)
        profile = tmp / "profile"
        (profile / "plug-ins" / "gpu-histogram").mkdir(parents=True)
        shutil.copy2(plugin, profile / "plug-ins" / "gpu-histogram" / "gpu-histogram")
        cases = tmp / "cases.json"
        cases.write_text(json.dumps(dict(image=str(IMAGES / "coffee.png"),
                                         reference=str(IMAGES / "chelsea.png"),
                                         scm=str(HERE / "gegl_filter_api.scm"), ops=OPS)))
        env = {k: v for k, v in os.environ.items() if k not in ("GEGL_PATH", "DISPLAY")}
        for var in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            (tmp / var).mkdir()
            env[var] = str(tmp / var)
        # BABL_LUT=0, as the other GIMP 3 tests run it (plugin_gimp.py,
        # gegl_module.py): GIMP's process and the plug-in's convert alike.
        env.update(XDG_DATA_HOME=str(tmp / "data"), GIMP3_DIRECTORY=str(profile),
                   GH_FILTER_API_CASES=str(cases),
                   GH_FILTER_API_REPORT=str(tmp / "report"), BABL_LUT="0")
        p = subprocess.run([console, "-i", "--batch-interpreter=python-fu-eval", "-b", "-",
                            "--quit"], input=(HERE / "gegl_filter_api_fu.py").read_text(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           env=env, timeout=540)
        log = p.stdout
        report = tmp / "report"
        report = [json.loads(l) for l in report.read_text().splitlines()] \
            if report.exists() else []
    n = 0
    for r in report:
        if "spec" in r:
            n += 1
            if r["types"]:
                fails.append(f"{r['spec']}: the module's types are known in the "
                             "script's process: the check proves nothing")
            before = len(fails)
            check_spec(r["spec"], r["props"], specs.get(r["spec"], []), fails)
            ok = len(fails) == before
            same = ", as the module's" if ok else ""
            print(f"{'ok  ' if ok else 'FAIL'} {r['spec']}: a script's config has "
                  f"{len(r['props'])} properties{same}")
        elif "case" in r:
            n += 1
            what = f"{r['by']} {r['case']} " + " ".join(f"{k}={v}" for k, v in
                                                        r["values"].items())
            live = r["listed"] is not None
            change = OPS[r["case"]]["change"]
            if r["by"] == "python" and change:
                what += f" ({change[0]} set while live)"
            ok = r["changed"] and r["same"] and (not live or (r["listed"] and r["unchanged"]))
            if r["config"] is not None and r["config"] != OPS[r["case"]]["values"]:
                ok = False
                fails.append(f"{what}: GIMP holds {r['config']}")
            print(f"{'ok  ' if ok else 'FAIL'} {what}: "
                  f"{'live, ' if live else 'merged at once, '}merged = procedure")
            if not ok:
                fails.append(f"{what}: listed {r['listed']}, unchanged while live "
                             f"{r['unchanged']}, changed {r['changed']}, "
                             f"= procedure {r['same']}")
    want = 2 * len(OPS) + len(OPS)
    if n != want or not (report and report[-1].get("done")):
        fails.append(f"GIMP's run stopped after {n} of {want} checks (exit "
                     f"{p.returncode}): {log.strip()[-3000:]}")
    trouble(log, fails)
    for f in fails:
        print("FAIL:", f)
    print(f"{n} checks, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
