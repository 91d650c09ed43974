#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The CLI's parameters at the edges of their ranges, the ranges read from the CLI itself.

Usage: cli_ranges.py PATH-TO-gpu-histogram-cli
The ranges are the engine's vocabulary's (gpu/gh_request.h), as `--list-params` prints
them. For every parameter and every operation that takes it, on a random RGBA image:
its minimum and maximum are accepted (exit 0, the copy written); one step past either
end, and for whole-number parameters a fraction, are refused as a usage error (exit 2)
whose first line names the parameter, no copy written. The aliases kept from before
the vocabulary (--equalize-mode, --clahe-params, --multi-otsu) are checked the same way
through the parameters they set, and --help shows every parameter with its range.
The names of mode's and channel's values (--list-params' last column) are each
accepted as the number of its place (the same bytes), and so is "channels", the
first name of mode each-channel; --help shows them.
Exit status: 0 all passed, 1 something failed.
"""
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from checks import Checks


def write_rgba(path, width, height, seed):
    """A P7 RGB_ALPHA image of random samples (numpy-free)."""
    rng = random.Random(seed)
    header = (f"P7\nWIDTH {width}\nHEIGHT {height}\nDEPTH 4\nMAXVAL 255\n"
              f"TUPLTYPE RGB_ALPHA\nENDHDR\n").encode()
    path.write_bytes(header + bytes(rng.randrange(256) for _ in range(width * height * 4)))


def number(v, integer):
    return str(int(v)) if integer and v == int(v) else f"{v:.10g}"


class CliChecks(Checks):
    def __init__(self, cli, image, tmp):
        super().__init__()
        self.cli, self.image, self.tmp = cli, image, tmp

    def run(self, operation, args, accepted, names):
        """Runs `--OPERATION FILE ARGS`; `names`: the parameter a refusal must name."""
        out = self.tmp / f"{operation}.pam"
        out.unlink(missing_ok=True)
        cmd = [self.cli, "--backend", "cpu", str(self.image), f"--{operation}", str(out)] + args
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        first = (p.stderr.splitlines() or [""])[0]
        what = f"--{operation} {' '.join(args)} {'accepted' if accepted else 'refused'}"
        if accepted:
            problem = (None if p.returncode == 0 and out.exists()
                       else f"exit {p.returncode}: {p.stderr.strip()[:300]}")
        elif p.returncode != 2:
            problem = f"exit {p.returncode}, not 2 (a usage error): {first}"
        elif not first.startswith(f"{names}:"):
            problem = f"the message does not name {names}: {first!r}"
        elif out.exists():
            problem = "a copy was written"
        else:
            problem = None
        self.report(what, problem)

    def same(self, operation, args, other):
        """`--OPERATION FILE ARGS` and `... OTHER` write the same bytes."""
        outs = []
        for k, a in enumerate((args, other)):
            out = self.tmp / f"{operation}-{k}.pam"
            subprocess.run([self.cli, "--backend", "cpu", str(self.image),
                            f"--{operation}", str(out)] + a, capture_output=True,
                           timeout=120)
            outs.append(out.read_bytes() if out.exists() else None)
        self.report(f"--{operation} {' '.join(args)} = {' '.join(other)}",
                    None if outs[0] is not None and outs[0] == outs[1] else "differ")


def list_params(cli):
    p = subprocess.run([cli, "--list-params"], capture_output=True, text=True, timeout=60,
                       check=True)
    lines = p.stdout.splitlines()
    if lines[0] != "param,integer,min,max,step,operations,values":
        raise SystemExit(f"--list-params: unexpected header {lines[0]!r}")
    params = {}
    for line in lines[1:]:
        name, integer, lo, hi, step, operations, values = line.split(",")
        params[name] = dict(integer=integer == "1", min=float(lo), max=float(hi),
                            step=float(step), operations=operations.split(),
                            values=values.split())
    return params


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: cli_ranges.py PATH-TO-gpu-histogram-cli")
    cli = sys.argv[1]
    params = list_params(cli)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        image, ref = tmp / "in.pam", tmp / "ref.pam"
        write_rgba(image, 96, 80, 25)
        write_rgba(ref, 40, 30, 52)
        t = CliChecks(cli, image, tmp)

        help_text = subprocess.run([cli, "--help"], capture_output=True, text=True,
                                   timeout=60).stdout
        for name, s in params.items():
            shown = f"{number(s['min'], s['integer'])}..{number(s['max'], s['integer'])}"
            t.report(f"--help shows --{name} and {shown}",
                     None if f"--{name} " in help_text and shown in help_text
                     else "not in --help")

        for name, s in params.items():
            integer = s["integer"]
            values = [(s["min"], True), (s["max"], True),
                      (s["min"] - s["step"], False), (s["max"] + s["step"], False)]
            if integer:
                values.append((s["min"] + 0.5, False))
            for operation in s["operations"]:
                extra = ["--reference", str(ref)] if operation == "match" else []
                for v, accepted in values:
                    t.run(operation, [f"--{name}", number(v, integer)] + extra, accepted, name)

        # The aliases, through the parameters they set.
        classes, clip = params["classes"], params["clip-limit"]
        tiles = params["tiles-x"]
        t.run("posterize", ["--multi-otsu", number(classes["min"], True)], True, "classes")
        t.run("posterize", ["--multi-otsu", number(classes["min"] - 1, True)], False, "classes")
        t.run("posterize", ["--multi-otsu", number(classes["max"] + 1, True)], False, "classes")
        t.run("clahe", ["--clahe-params", f"{number(clip['max'], False)},"
                        f"{number(tiles['min'], True)},{number(tiles['max'], True)}"], True,
              "clip-limit")
        t.run("clahe", ["--clahe-params",
                        f"{number(clip['max'] + clip['step'], False)},8,8"], False, "clip-limit")
        t.run("clahe", ["--clahe-params", f"2,{number(tiles['max'] + 1, True)},8"], False,
              "tiles-x")
        t.run("clahe", ["--clahe-params", "2,8,0"], False, "tiles-y")
        # The values' names ("each-channel"), each the number of its
        # place, for every operation that takes it; "channels", the first
        # name of each channel, stays accepted.
        t.report("mode's and channel's names", None
                 if params["mode"]["values"] == ["each-channel", "luminance"]
                 and params["channel"]["values"] == ["value", "red", "green", "blue",
                                                     "alpha", "luminance"]
                 else f"{params['mode']['values']}, {params['channel']['values']}")
        for name, s in params.items():
            if s["values"]:
                t.report(f"--help shows --{name}'s names",
                         None if ", ".join(s["values"]) in help_text else "not in --help")
            for k, value in enumerate(s["values"]):
                for operation in s["operations"]:
                    extra = ["--reference", str(ref)] if operation == "match" else []
                    t.run(operation, [f"--{name}", value] + extra, True, name)
                    t.same(operation, [f"--{name}", value] + extra,
                           [f"--{name}", str(k)] + extra)
        t.run("equalize", ["--mode", "channels"], True, "mode")
        t.same("equalize", ["--mode", "channels"], ["--mode", "each-channel"])
        t.run("equalize", ["--mode", "each-channels"], False, "mode")
        t.run("equalize", ["--equalize-mode", "luminance"], True, "mode")
        t.run("equalize", ["--equalize-mode", "2"], False, "mode")
        t.run("binarize", ["--channel", "alpha"], True, "channel")
        t.run("binarize", ["--channel", "purple"], False, "channel")

    print(f"{t.passed} passed, {t.failed} failed")
    sys.exit(1 if t.failed else 0)


if __name__ == "__main__":
    main()
