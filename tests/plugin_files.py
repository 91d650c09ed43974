#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Files the plug-in writes are written whole, nothing lost (GIMP 2.10 or 3):

- kill -9 in the middle of a batch over large images: every result in the
  output folder is complete (loads, equals OpenCV's equalizeHist), the
  statistics CSV has only whole rows, and a later batch appends to it with
  still one header;
- kill -9 at random moments of batches over many small files with long
  names (a file's rows cross a 4 KiB page): after each kill the CSV parses
  into whole rows under one header, each file's rows together;
- a kill inside a row: the plug-in under a file size limit that falls in
  the middle of a file's rows, so the kernel cuts that write short and
  kills the plug-in (SIGXFSZ) while it writes, as a kill -9 between two
  pages of one write() would: the table is the one before, byte for byte;
- a full disk (a small tmpfs): the results that fit are complete, the
  file that does not fit gets an error row saying so and nothing visible,
  the batch goes on with the next file (which fits again, since nothing
  half-written stays), GIMP's message names the failed file; a CSV export
  onto the full disk fails and leaves the old CSV byte for byte; the
  statistics table there takes the files whose rows fit (with room for the
  table's new copy beside the old one) and names the others;
- a read-only output folder: an error row per file, the message names them;
- odd file names (commas, quotes, newlines, CR, spaces, semicolons,
  non-UTF-8 bytes): results saved under the same names, and Python's csv
  module reads back exactly the names (the CSV holds the names' bytes:
  read it as UTF-8 with errors="surrogateescape");
- two batches appending to one CSV at once: one header, whole rows, each
  file's rows together;
- output-dir equal to the input folder (or a link to it): refused as a
  calling error that says so, before anything is written; inputs unchanged.

The tmpfs checks need root (mount); without it they say so and are left out.

Usage: plugin_files.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import csv
import os
import random
import signal
import subprocess
import time
from itertools import groupby
from pathlib import Path

from plugin_gimp import GimpConsole, Tally, parse_args, require_gimp, scm_str
from plugin_memory import wrap_plugin

HEADER = ["file", "channel", "count", "min", "max", "mean", "median", "std_dev", "otsu", "backend"]


def read_csv(path):
    """Rows as Python's csv module reads them, names as os.fsdecode gives them."""
    with open(path, newline="", encoding="utf-8", errors="surrogateescape") as f:
        return list(csv.reader(f))


def whole_rows(rows):
    """Every row has the 10 fields, and one header, first (or nothing at
    all: the header comes with a table's first rows)."""
    return not rows or (rows[0] == HEADER and rows.count(HEADER) == 1
            and all(len(r) == 10 for r in rows))


def in_fives(rows):
    """Each file's five rows together, as often as batches gave them."""
    runs = [len(list(g)) for _, g in groupby(r[0] for r in rows[1:])]
    return all(n % 5 == 0 for n in runs)


def grouped(rows):
    """Each file's rows are together (no other file's rows between them)."""
    seen, last = set(), None
    for r in rows[1:]:
        if r[0] != last:
            if r[0] in seen:
                return False
            seen.add(r[0])
            last = r[0]
    return True


class Tmpfs:
    """A small tmpfs GIMP can see: under /tmp for GIMP 2.10 and a native
    GIMP 3; inside the GIMP 3 environment's root (its /tmp is a plain bind
    of the host's, without the mounts under it) for the environment.
    .gimp: the path GIMP is given; .here: the same folder here."""

    def __init__(self, host, name, size, readonly=False):
        if host.env_script:
            p = subprocess.run(["bash", host.env_script, "root"], stdout=subprocess.PIPE, text=True)
            root = Path(p.stdout.strip())
            self.gimp = Path("/mnt") / f"gh-{os.getpid()}-{name}"
            self.here = root / self.gimp.relative_to("/")
        else:
            self.here = self.gimp = Path(f"/tmp/gh-{os.getpid()}-{name}")
        self.here.mkdir(parents=True, exist_ok=True)
        opts = f"size={size}" + (",ro" if readonly else "")
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(self.here)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.ok = r.returncode == 0
        self.why = r.stdout.strip()

    def close(self):
        if self.ok:
            subprocess.run(["umount", "-l", str(self.here)])
        try:
            self.here.rmdir()
        except OSError:
            pass


def noise(np, h, w, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)


def equalized(cv2, np, a):
    return np.dstack([cv2.equalizeHist(np.ascontiguousarray(a[..., k])) for k in range(3)])


def main():
    host, plugin = parse_args("plugin_files.py")
    require_gimp(host)
    import cv2
    import numpy as np
    t = Tally()
    root = os.geteuid() == 0

    with GimpConsole(plugin, host) as s:
        def batch(pattern, op, out, stats):
            return (f"(gh-batch RUN-NONINTERACTIVE {scm_str(pattern)} {op}"
                    f" {scm_str(out)} {scm_str(stats)})")

        # ---- kill -9 in the middle of a batch over large images ----------
        big = s.tmp / "big"
        big.mkdir()
        images = {}
        for k in range(3):
            a = noise(np, 1800, 2400, k)
            images[f"big{k}.png"] = a
            cv2.imwrite(str(big / f"big{k}.png"), a[..., ::-1], [cv2.IMWRITE_PNG_COMPRESSION, 1])
        out, stats = s.tmp / "killed", s.tmp / "killed.csv"
        out.mkdir()
        p = subprocess.Popen(host.argv([batch(big / "*.png", 1, out, stats)]), env=s.env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        # Killed as soon as anything appears in the output folder: while
        # GIMP is writing the first result.
        deadline, seen = time.time() + 300, []
        while time.time() < deadline and p.poll() is None:
            seen = [e.name for e in os.scandir(out)]
            if seen:
                break
            time.sleep(0.005)
        killed_while = p.poll() is None
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
        time.sleep(0.5)
        t.check("kill -9: killed while the batch was writing", killed_while and seen, repr(seen))
        bad = []
        for f in sorted(out.iterdir()):
            if f.name.startswith("."):
                continue  # a temporary GIMP was writing: never the result
            got = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
            want = equalized(cv2, np, images.get(f.name, np.zeros((1, 1, 3), np.uint8)))
            if got is None or got.shape != want.shape or not (got[..., ::-1] == want).all():
                bad.append(f"{f.name} ({f.stat().st_size} bytes)")
        t.check("kill -9: no visible result is truncated or wrong", not bad, repr(bad))
        rows = read_csv(stats) if stats.exists() else [HEADER]
        t.check("kill -9: the CSV has only whole rows", whole_rows(rows), repr(rows[-2:]))
        # A later batch appends to the table a killed one left.
        small = s.tmp / "small"
        small.mkdir()
        for k in range(2):
            cv2.imwrite(str(small / f"s{k}.png"), noise(np, 20, 30, 10 + k))
        o = s.run({"after kill": batch(small / "*.png", 0, "", stats)})
        rows = read_csv(stats) if stats.exists() else []
        t.check("kill -9: a later batch appends whole rows under the one header",
                o["after kill"].ok and whole_rows(rows)
                and sum(r[0] == str(small / "s1.png") for r in rows) == 5,
                f"{rows[:1]} {len(rows)}\n{o['after kill'].text}")

        # ---- kill -9 at random moments, rows crossing pages ---------------
        # Three nested 200-byte folders and 230-byte names: each row holds
        # a 900-byte name, a file's five rows about 4.8 KiB.
        deep = s.tmp / "long" / ("d" * 200) / ("e" * 200) / ("f" * 200)
        deep.mkdir(parents=True)
        for i in range(40):
            cv2.imwrite(str(deep / f"{'n' * 230}-{i:02d}.png"), noise(np, 4, 4, 400 + i))
        table = s.tmp / "rows.csv"
        rng = random.Random(16)
        kills, bad = [], []
        for k in range(4):
            before = table.stat().st_size if table.exists() else -1
            p = subprocess.Popen(host.argv([batch(deep / "*.png", 0, "", table)]), env=s.env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
            # Once the batch is writing rows, at a random moment of it.
            deadline = time.time() + 120
            while (time.time() < deadline and p.poll() is None
                   and (table.stat().st_size if table.exists() else -1) <= max(before, 0)):
                time.sleep(0.002)
            time.sleep(rng.uniform(0, 0.8))
            kills.append(p.poll() is None)
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            rows = read_csv(table) if table.exists() else []
            if not (whole_rows(rows) and in_fives(rows)):
                bad.append(f"kill {k}: {len(rows)} rows, last {rows[-1:]!r}")
        rows = read_csv(table) if table.exists() else []
        t.check("random kill -9: the batches were killed while running, rows crossing pages",
                all(kills) and len(rows) > 1 and len(table.read_bytes()) > 8192
                and min(len(",".join(r)) for r in rows[1:]) > 900, f"{kills} {len(rows)} rows")
        t.check(f"random kill -9 ({len(kills)} kills): after each the CSV is whole rows "
                "under one header, each file's rows together", not bad, "\n".join(bad))

        # ---- a kill inside a row ----------------------------------------------
        # The table above and a limit 2000 bytes past its end, inside the
        # next file's rows (a plug-in limited from its first start: a
        # gimp-console of its own).
        with GimpConsole(plugin, host) as k:
            cut = k.tmp / "cut.csv"
            old = table.read_bytes()
            cut.write_bytes(old)
            limit = len(old) + 2000
            wrap_plugin(k, fsize=limit)
            k.run({"cut": batch(deep / "*.png", 0, "", cut)})
            # The write that crossed the limit stopped there: the table
            # or a temporary beside it holds exactly `limit` bytes.
            at_limit = [f.name for f in k.tmp.iterdir() if f.stat().st_size == limit]
            t.check("kill inside a row: the plug-in was killed in a write, cut at the limit",
                    len(at_limit) == 1, repr(sorted((f.name, f.stat().st_size)
                                                    for f in k.tmp.iterdir())))
            data = cut.read_bytes()
            rows = read_csv(cut)
            t.check("kill inside a row: the table is the one before, byte for byte",
                    data == old and whole_rows(rows) and in_fives(rows),
                    f"{len(data)} bytes against {len(old)}, ends {data[-80:]!r}")

        # ---- a full disk, a read-only folder --------------------------------
        if not root:
            print("skip full disk / read-only folder: mounting a tmpfs needs root")
        else:
            full = Tmpfs(host, "full", "1m")
            ro = Tmpfs(host, "ro", "1m", readonly=True)
            try:
                t.check("tmpfs mounted", full.ok and ro.ok, full.why + ro.why)
                src = s.tmp / "fill"
                src.mkdir()
                fill = {"1-small.png": noise(np, 40, 50, 20), "2-big.png": noise(np, 700, 800, 21),
                        "3-small.png": noise(np, 30, 60, 22)}
                for name, a in fill.items():
                    cv2.imwrite(str(src / name), a[..., ::-1])
                stats = s.tmp / "full.csv"
                # An old CSV on the full disk, to be kept by a failed export.
                old_csv = b"old,csv\n1,2\n"
                (full.here / "old.csv").write_bytes(old_csv)
                ballast = full.here / "ballast"
                o = s.run({
                    "full": batch(src / "*.png", 1, full.gimp / "out", stats),
                    "ro": batch(src / "*.png", 1, ro.gimp, s.tmp / "ro.csv"),
                })
                rows = read_csv(stats) if stats.exists() else [HEADER]
                t.check("full disk: the batch ran to its end", o["full"].ok
                        and whole_rows(rows), o["full"].text + repr(rows))
                errs = {r[0]: r[9] for r in rows if r[1] == "error"}
                bigname = str(src / "2-big.png")
                t.check("full disk: the file that does not fit has an error row saying so",
                        list(errs) == [bigname] and "space" in errs[bigname].lower(), repr(errs))
                t.check("full disk: GIMP's message names the failed file",
                        "2-big.png" in o["full"].text and "1 failed" in o["full"].text,
                        o["full"].text)
                names = sorted(f.name for f in (full.here / "out").iterdir()) \
                    if (full.here / "out").exists() else []
                t.check("full disk: nothing half-written (no temporary, no partial result)",
                        names == ["1-small.png", "3-small.png"], repr(names))
                for name in ("1-small.png", "3-small.png"):
                    got = cv2.imread(str(full.here / "out" / name))
                    want = equalized(cv2, np, fill[name])
                    t.check(f"full disk: {name} complete and right (the batch went on)",
                            got is not None and (got[..., ::-1] == want).all())
                # Fill the disk to the last block, then export onto the old CSV.
                with open(ballast, "wb", buffering=0) as f:
                    try:
                        while True:
                            f.write(b"\0" * 4096)
                            f.flush()
                    except OSError:
                        pass
                o = s.run({"export": (
                    f"(let* ((l (gh-load {scm_str(src / '1-small.png')})))"
                    f" (gh-export RUN-NONINTERACTIVE (car l) (cadr l) {scm_str(full.gimp / 'old.csv')}))")})
                t.check("full disk: the export fails", not o["export"].ok, o["export"].text)
                t.check("full disk: the old CSV is kept byte for byte, no temporary left",
                        (full.here / "old.csv").read_bytes() == old_csv
                        and sorted(f.name for f in full.here.iterdir()) == ["ballast", "old.csv", "out"],
                        repr(sorted(f.name for f in full.here.iterdir())))
                # The statistics table on a disk with three pages left: it
                # is rewritten beside itself, so it grows while the old
                # and the new table fit together (and one page stays free:
                # files.h), up to about a page: the rows of the files that
                # fit, whole; the others named.
                size = ballast.stat().st_size
                os.truncate(ballast, max(0, size - size % 4096 - 3 * 4096))
                many = s.tmp / "many"
                many.mkdir()
                for i in range(12):
                    cv2.imwrite(str(many / f"m{i:02d}.png"), noise(np, 5, 6, 300 + i))
                on_full = full.here / "stats.csv"
                o = s.run({"csv full": batch(many / "*.png", 0, "", full.gimp / "stats.csv")})
                data = on_full.read_bytes() if on_full.exists() else b""
                rows = read_csv(on_full) if data else []
                t.check("full disk: the statistics table there holds whole rows only",
                        o["csv full"].ok and data.endswith(b"\n") and whole_rows(rows)
                        and len(rows) % 5 == 1 and 1 < len(rows) < 61,
                        f"{len(rows)} rows, ends {data[-60:]!r}\n{o['csv full'].text}")
                t.check("full disk: the files whose rows did not fit are named in the message",
                        "m11.png" in o["csv full"].text and "space" in o["csv full"].text.lower(),
                        o["csv full"].text)
                rows = read_csv(s.tmp / "ro.csv") if (s.tmp / "ro.csv").exists() else []
                errs = [r for r in rows if r[1] == "error"]
                t.check("read-only folder: an error row per file, the batch ran to its end",
                        len(errs) == 3 and all("read-only" in r[9].lower() for r in errs),
                        repr(errs))
            finally:
                full.close()
                ro.close()

        # ---- odd file names -----------------------------------------------
        odd = s.tmp / "odd"
        odd.mkdir()
        names = [b"a,b.png", b'quo"te.png', b"new\nline.png", b"cr\rx.png", b" lead space.png",
                 b"trail space .png", b"semi;colon.png", b"caf\xe9.png", b"\xff\xfe.png"]
        for n in names:
            # (OpenCV's own writer cannot take such names.)
            with open(bytes(odd) + b"/" + n, "wb") as f:
                f.write(cv2.imencode(".png", noise(np, 8, 9, len(n)))[1].tobytes())
        o = s.run({"odd": batch(odd / "*.png", 1, s.tmp / "odd-out", s.tmp / "odd.csv")})
        rows = read_csv(s.tmp / "odd.csv") if (s.tmp / "odd.csv").exists() else []
        want = sorted(os.fsdecode(bytes(odd) + b"/" + n) for n in names)
        got = sorted({r[0] for r in rows[1:]})
        t.check("odd names: the batch ran", o["odd"].ok, o["odd"].text)
        t.check("odd names: the CSV is whole and csv reads back exactly the names",
                whole_rows(rows) and got == want, f"{got}\n{want}")
        t.check("odd names: no error rows", not [r for r in rows if r[1] == "error"],
                repr([r for r in rows if r[1] == "error"]))
        outs = sorted(os.listdir(bytes(s.tmp / "odd-out"))) if (s.tmp / "odd-out").exists() else []
        t.check("odd names: results saved under the same names", outs == sorted(names), repr(outs))

        # ---- two batches appending at once ------------------------------
        conc = [s.tmp / "c0", s.tmp / "c1"]
        for k, d in enumerate(conc):
            d.mkdir()
            for i in range(6):
                cv2.imwrite(str(d / f"c{k}-{i}.png"), noise(np, 60, 70, 100 * k + i))
        shared = s.tmp / "shared.csv"
        procs = [subprocess.Popen(host.argv([batch(d / "*.png", 0, "", shared)]), env=s.env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for d in conc]
        for p in procs:
            p.wait(timeout=600)
        rows = read_csv(shared) if shared.exists() else []
        files = {r[0] for r in rows[1:]}
        t.check("concurrent batches: one header, whole rows", whole_rows(rows), repr(rows[:3]))
        t.check("concurrent batches: every file's five rows, together",
                len(files) == 12 and len(rows) == 1 + 60 and grouped(rows),
                f"{len(files)} files, {len(rows)} rows")

        # ---- output-dir = the input folder --------------------------------
        same = s.tmp / "same"
        same.mkdir()
        before = {}
        for i in range(2):
            cv2.imwrite(str(same / f"i{i}.png"), noise(np, 10, 12, 200 + i))
            before[f"i{i}.png"] = (same / f"i{i}.png").read_bytes()
        (s.tmp / "same-link").symlink_to(same)
        o = s.run({
            "same": batch(same / "*.png", 1, same, s.tmp / "same.csv"),
            "same link": batch(same / "*.png", 3, s.tmp / "same-link", s.tmp / "same.csv"),
            "same dot": batch(same / "*.png", 2, str(same) + "/./", s.tmp / "same.csv"),
        })
        for tag in ("same", "same link", "same dot"):
            t.check(f"output-dir = input folder ({tag}): a calling error that says so",
                    not o[tag].ok and (host.calling_error(o[tag].text)
                                       or "calling error" in o[tag].text.lower())
                    and "overwrite the inputs" in o[tag].text, o[tag].text)
        t.check("output-dir = input folder: inputs unchanged, nothing written",
                all((same / n).read_bytes() == b for n, b in before.items())
                and sorted(os.listdir(same)) == sorted(before)
                and not (s.tmp / "same.csv").exists(), repr(sorted(os.listdir(same))))
    t.finish()


if __name__ == "__main__":
    main()
