#!/usr/bin/python3
"""Equalize of one 25.6 MP RGB layer in GIMP 3 (issue 26): GIMP's own
gimp-drawable-equalize against plug-in-gpu-histogram-equalize merged
through the GEGL module (GIMP renders it in its own process) and through
the plug-in's pixel path (the module not installed), in two gimp-console-3
sessions, each timing GIMP's own too (bench/gimp_live_fu.py).

Usage: gimp_live.py PLUGIN MODULE [--calls N]
  (GH_GIMP3_ENV / GH_GIMP3: inside that root, as the tests run)
e.g.   GH_GIMP3_ENV=scripts/gimp3-env.sh GH_GIMP3=3.0 bench/gimp_live.py \\
         build/gpu-histogram-gimp3 build/gimp3-env/gegl/gpu-histogram-gegl.so
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def session(plugin, module, calls, tmp, name):
    data = tmp / name / "gegl-0.4" / "plug-ins"
    data.mkdir(parents=True)
    if module:
        shutil.copy(module, data)
    profile = Path("/var/cache/gpu-histogram-tests/plugin-live-profile")
    (profile / "plug-ins" / "gpu-histogram").mkdir(parents=True, exist_ok=True)
    shutil.copy2(plugin, profile / "plug-ins" / "gpu-histogram" / "gpu-histogram")
    report = tmp / f"{name}.report"
    env = {k: v for k, v in os.environ.items() if k != "GEGL_PATH"}
    env.update(XDG_DATA_HOME=str(tmp / name), GIMP3_DIRECTORY=str(profile),
               GH_BENCH_IMAGE=str(ROOT / "testimages" / "coffee.png"),
               GH_BENCH_CALLS=str(calls), GH_BENCH_REPORT=str(report))
    p = subprocess.run(["gimp-console-3", "-i", "--batch-interpreter=python-fu-eval",
                        "-b", "-", "--quit"], env=env, capture_output=True, text=True,
                       stdin=open(ROOT / "bench" / "gimp_live_fu.py"))
    if not report.exists() or len(report.read_text().splitlines()) != 2:
        sys.exit(f"{name}: the session stopped: {p.stderr[-2000:]}")
    return {w: list(map(float, rest)) for w, *rest in
            (line.split() for line in report.read_text().splitlines())}


def main():
    args = sys.argv[1:]
    calls = 5
    if "--calls" in args:
        k = args.index("--calls")
        calls = int(args[k + 1])
        del args[k:k + 2]
    plugin, module = (Path(a).resolve() for a in args[:2])
    if os.environ.get("GH_GIMP3_ENV") and not os.environ.get("GH_INSIDE"):
        env = dict(os.environ, GH_INSIDE="1")
        return subprocess.run(["bash", env["GH_GIMP3_ENV"], "run", "python3", __file__,
                               str(plugin), str(module), "--calls", str(calls)],
                              env=env).returncode
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        module_run = session(plugin, module, calls, tmp, "module")
        pixels_run = session(plugin, None, calls, tmp, "pixels")
    print(f"equalize, 6400 x 4000 RGB u8, {calls} calls after one (s: first, "
          "median, min; ratio: median over GIMP's own median in the same session)")
    for what, run in (("module", module_run), ("pixel path", pixels_run)):
        g, p = run["gimp"], run["plugin"]
        print(f"  GIMP's own ({what} session): {g[0]:.3f} {g[1]:.3f} {g[2]:.3f}")
        print(f"  plug-in, {what}: {p[0]:.3f} {p[1]:.3f} {p[2]:.3f}  "
              f"ratio {p[1] / g[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
