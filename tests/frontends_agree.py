#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The frontends speak one vocabulary: the plug-in's procedures (what both
GIMP hosts register: tests/procedures_list), the GEGL module's operations
(tests/gegl_run list) and the CLI (--list-params) agree on each
operation's name, parameters, ranges, defaults and value lists.

    frontends_agree.py PROCEDURES_LIST CLI [GEGL_RUN GEGL_MODULE_DIR]

For each operation with a procedure:
- its menu label (less the mnemonic and "...") is the GEGL operation's
  title: one name per operation;
- its parameters (every argument but match's reference and multi-Otsu's
  apply) are the GEGL operation's properties and the CLI's parameters of
  that operation;
- each parameter's range is the same in all three, its default the
  procedure's and the module's;
- a parameter with named values (mode, channel) lists the same values in
  the same order: the CLI's and the module's names (nicks), the module's
  labels and the procedure's description "(0 Label, 1 Label, ...)";
- no description speaks in number codes where the values have names
  (the module's blurbs hold no "0 " or "1 " code).
Without GEGL_RUN (a build without GEGL) only the procedures and the CLI
are compared.  Ends with "N passed, N failed".
"""
import os
import re
import subprocess
import sys


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, what, ok, detail=""):
        print(f"ok   {what}" if ok else f"FAIL {what}: {detail}")
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def run(args, env=None):
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    if p.returncode:
        sys.exit(f"{' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
    return p.stdout


def procedures(exe):
    """{operation: {proc, label, gegl, args: [(name, kind, min, max, default,
    blurb)]}}."""
    ops, current = {}, None
    for line in run([exe]).splitlines():
        if line.startswith("  "):
            name, kind, lo, hi, default, blurb = line.strip().split("\t")
            ops[current]["args"].append((name, kind, float(lo), float(hi),
                                         float(default), blurb))
        else:
            current, proc, label, gegl = line.split("\t")
            ops[current] = {"proc": proc, "label": label, "gegl": gegl, "args": []}
    return ops


def cli_params(exe):
    """{param: (integer, min, max, [operations], [value nicks])}."""
    lines = run([exe, "--list-params"]).splitlines()
    params = {}
    for line in lines[1:]:
        name, integer, lo, hi, _step, ops, values = line.split(",")
        params[name] = (integer == "1", float(lo), float(hi), ops.split(),
                        values.split())
    return params


def module_ops(driver, module_dir):
    """{operation: {title, props: [(name, type, default, range or values,
    label, blurb, values' labels)]}}."""
    env = dict(os.environ, GEGL_PATH=module_dir)
    ops, current = {}, None
    for line in run([driver, "list"], env).splitlines():
        if line.startswith("  "):
            ops[current]["props"].append(line.strip().split("\t"))
        else:
            current, title, _menu = line.split("\t")
            ops[current] = {"title": title, "props": []}
    return ops


def values_of(rng):
    """'each-channel=0,luminance=1' -> [('each-channel', 0), ...]."""
    return [(v.split("=")[0], int(v.split("=")[1])) for v in rng.split(",")]


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    t = Tally()
    procs = procedures(sys.argv[1])
    cli = cli_params(sys.argv[2])
    gegl = module_ops(*sys.argv[3:5]) if len(sys.argv) == 5 else None

    t.check(f"every operation has a procedure ({sorted(procs)})",
            sorted(procs) == sorted({o for p in cli.values() for o in p[3]}))
    for op, p in procs.items():
        params = [a for a in p["args"] if a[0] in cli]
        names = [a[0] for a in params]
        t.check(f"{op}: the CLI's parameters are the procedure's {names}",
                sorted(names) == sorted(n for n, c in cli.items() if op in c[3]))
        for name, kind, lo, hi, default, blurb in params:
            integer, clo, chi, _ops, nicks = cli[name]
            t.check(f"{op} {name}: range {lo:g}..{hi:g} and kind the CLI's",
                    (lo, hi) == (clo, chi) and integer == (kind == "int"),
                    f"the CLI's {clo:g}..{chi:g}, integer {integer}")
        if gegl is None:
            continue
        m = gegl.get(p["gegl"])
        t.check(f"{op}: the module has {p['gegl']}", m is not None, sorted(gegl))
        if m is None:
            continue
        label = p["label"].replace("_", "").removesuffix("...")
        t.check(f"{op}: one name, the menu's {label!r} and the module's title "
                f"{m['title']!r}", label == m["title"])
        props = {q[0]: q for q in m["props"]}
        # GObject lists properties by id: the vocabulary's order of
        # parameters, not the procedure's.
        t.check(f"{op}: the module's properties are the procedure's {names}",
                sorted(q[0] for q in m["props"]) == sorted(names),
                [q[0] for q in m["props"]])
        for name, kind, lo, hi, default, blurb in params:
            q = props.get(name)
            if q is None:
                continue
            _, _type, mdefault, rng, _label, mblurb, *labels = q
            nicks = cli[name][4]
            if nicks:
                values = values_of(rng)
                vlabels = labels[0].split(",") if labels else []
                t.check(f"{op} {name}: the values {nicks}, the module's and the CLI's",
                        [v for v, _ in values] == nicks
                        and [n for _, n in values] == list(range(len(nicks))),
                        values)
                listed = ", ".join(f"{n} {lab}" for n, lab in enumerate(vlabels))
                t.check(f"{op} {name}: the procedure's description lists them "
                        f"({listed})", f"({listed})" in blurb, blurb)
                t.check(f"{op} {name}: the module's default {mdefault} is the "
                        f"procedure's {default:g}",
                        dict(values).get(mdefault) == default)
                t.check(f"{op} {name}: the module's description in words "
                        f"({mblurb!r})", not re.search(r"\b[0-9] [a-z]", mblurb))
            else:
                mlo, mhi = map(float, rng.split(".."))
                t.check(f"{op} {name}: the module's range {mlo:g}..{mhi:g} and "
                        f"default {mdefault} are the procedure's",
                        (mlo, mhi) == (lo, hi) and float(mdefault) == default)
    print(f"{t.passed} passed, {t.failed} failed")
    sys.exit(1 if t.failed or not t.passed else 0)


if __name__ == "__main__":
    main()
