#!/usr/bin/python3
"""Whole-call cost in GIMP (issue 14, part b): one call of plug-in-gpu-histogram
against GIMP's own five gimp-drawable-histogram calls (value, red, green, blue,
luminance) on 1x1, 1 MP and 25.6 MP RGB images, in gimp-console 2.10 and 3.

A call's cost is taken as (session with 6 calls - session with 1 call) / 5, each
session a fresh gimp-console making the image and then calling; medians of
--repeat sessions (GIMP's start-up varies by seconds on a shared machine, so only
the differences mean anything).  Prints a table of ms per call and the ratio
plug-in / GIMP.

Usage: gimp_calls.py PLUGIN-GIMP2 [PLUGIN-GIMP3-IN-ENV] [--repeat N]
GIMP 3 runs through scripts/gimp3-env.sh (GH_GIMP3_ENV) as the tests do.
"""
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from plugin_gimp import GimpSession, Host  # noqa: E402

SIZES = {"1x1": (1, 1), "1 MP": (1000, 1000), "25.6 MP": (6400, 4000)}


def image(w, h, body):
    # A gradient: every level present, made by GIMP itself inside the session.
    return (f"(let* ((img (car (gimp-image-new {w} {h} RGB)))"
            f" (drw (gh-new-layer img {w} {h} RGB-IMAGE \"l\")))"
            " (gimp-image-insert-layer img drw 0 0)"
            " (gimp-context-set-default-colors)"
            f" (gimp-drawable-edit-gradient-fill drw GRADIENT-LINEAR 0 FALSE 1 0 TRUE 0 0"
            f" {w - 1} {h - 1}) {body})")


def calls(host, what, n):
    if what == "plugin":
        one = "(gh-histogram RUN-NONINTERACTIVE img drw)"
    else:
        rng = "0.0 1.0"  # both GIMPs take the range on 0..1
        one = " ".join(f"(gimp-drawable-histogram drw {c} {rng})" for c in (0, 1, 2, 3, 5))
    return "(begin " + one * n + ")"


def session_seconds(s, commands):
    t = time.perf_counter()
    log = s._gimp(commands)
    took = time.perf_counter() - t
    if "execution error" in log:
        raise RuntimeError(log[-1500:])
    return took


def measure(plugin, host, repeat):
    rows = {}
    with GimpSession(plugin, host) as s:
        for name, (w, h) in SIZES.items():
            per = {}
            for what in ("plugin", "gimp"):
                diffs = []
                for _ in range(repeat):
                    t1 = session_seconds(s, [image(w, h, calls(host, what, 1))])
                    t6 = session_seconds(s, [image(w, h, calls(host, what, 6))])
                    diffs.append((t6 - t1) / 5)
                per[what] = (statistics.median(diffs), diffs)
            rows[name] = per
            print(f"  {host.name} {name}: plugin {per['plugin'][0] * 1e3:.0f} ms "
                  f"{[round(d * 1e3) for d in per['plugin'][1]]}, gimp x5 "
                  f"{per['gimp'][0] * 1e3:.0f} ms {[round(d * 1e3) for d in per['gimp'][1]]}",
                  flush=True)
    return rows


def main():
    args = [a for a in sys.argv[1:]]
    repeat = 3
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    if not args:
        raise SystemExit(__doc__)
    hosts = [("gimp2", args[0])] + ([("gimp3", args[1])] if len(args) > 1 else [])
    table = {}
    for name, plugin in hosts:
        table[name] = measure(plugin, Host(name), repeat)
    print(f"\nms per call, (6 calls - 1 call) / 5, median of {repeat} session pairs")
    print("| host | image | plug-in | GIMP's five gimp-drawable-histogram | plug-in / GIMP |")
    print("|---|---|---|---|---|")
    for name, rows in table.items():
        for size, per in rows.items():
            p, g = per["plugin"][0] * 1e3, per["gimp"][0] * 1e3
            ratio = f"{p / g:.2f}" if g > 0 else "-"
            print(f"| {name} | {size} | {p:.0f} | {g:.0f} | {ratio} |")


if __name__ == "__main__":
    main()
