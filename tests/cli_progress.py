#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A folder run as a user sees it: the CLI on 1,000 small netpbm files and
two it must refuse, its stderr on a pseudo-terminal.

- On a terminal: a progress line redrawn in place ("\\r", then "N/TOTAL
  files, R files/s, M:SS left"), the last one at TOTAL/TOTAL, then one
  summary line: how many were done, how many refused and why (each
  refusal's message, naming its file); exit status 1; every good file
  written.
- stderr a pipe: no progress line (no "\\r"), the same summary.
- --quiet on a terminal: neither progress nor summary.
- One input: no summary; a folder with nothing refused: exit 0 and a
  summary with no refusal.

Usage: cli_progress.py PATH-TO-gpu-histogram-cli
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure.
"""
import os
import pty
import re
import select
import subprocess
import sys
import tempfile
from pathlib import Path

from checks import Checks

FILES = 1000
# A terminal turns "\n" into "\r\n"; a carriage return alone redraws.
REDRAW = re.compile(r"\r(?!\n)")
PROGRESS = re.compile(r"\r\x1b\[K(\d+)/(\d+) files, [\d.]+ files/s, [\d:?]+ left")


def on_terminal(cmd):
    """(exit status, stdout, what stderr showed) with stderr on a
    pseudo-terminal, read as the run goes so it never blocks."""
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    seen = bytearray()
    out = bytearray()
    streams = {master: seen, p.stdout.fileno(): out}
    while streams:
        ready, _, _ = select.select(list(streams), [], [], 60)
        if not ready:
            p.kill()
            break
        for fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # EIO: the terminal's last writer is gone
                data = b""
            if data:
                streams[fd] += data
            else:
                del streams[fd]
    os.close(master)
    p.stdout.close()
    return p.wait(timeout=60), out.decode(errors="replace"), seen.decode(errors="replace")


def piped(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def summary_problem(text, done, total, refused):
    """None when `text` ends with the right summary line."""
    # A terminal shows what follows the last carriage return of a line.
    text = text.replace("\r\n", "\n").replace("\x1b[K", "")
    lines = [line.split("\r")[-1] for line in text.split("\n")]
    lines = [line for line in lines if line.strip()]
    last = lines[-1] if lines else ""
    want = f"summary: {done} of {total} files done in "
    if not last.startswith(want):
        return f"last line {last!r}, not {want!r}..."
    if refused:
        if f", {len(refused)} refused: " not in last:
            return f"no '{len(refused)} refused' in {last!r}"
        missing = [name for name in refused if name not in last]
        if missing:
            return f"the refusals of {missing} not named in {last!r}"
    elif "refused" in last:
        return f"a refusal in {last!r}"
    return None


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: cli_progress.py PATH-TO-gpu-histogram-cli")
    cli = sys.argv[1]
    checks = Checks()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        folder = tmp / "in"
        folder.mkdir()
        for i in range(FILES):
            # 8x8 gray, a different picture each file.
            pixels = bytes((i * 7 + k * 13) % 256 for k in range(64))
            (folder / f"{i:04d}.pgm").write_bytes(b"P5 8 8 255\n" + pixels)
        good = sorted(str(p) for p in folder.iterdir())
        bad = [tmp / "short.pgm", tmp / "notes.txt"]
        bad[0].write_bytes(b"P5 8 8 255\n" + bytes(10))
        bad[1].write_text("not an image\n")
        inputs = good[:500] + [str(bad[0])] + good[500:] + [str(bad[1])]
        total = len(inputs)
        out = tmp / "out"

        def cmd(*extra, files=inputs):
            return [cli, *extra, "--equalize", str(out / "%n.pgm"), *files]

        out.mkdir()
        rc, stdout, screen = on_terminal(cmd())
        draws = PROGRESS.findall(screen)
        last = draws[-1] if draws else None
        checks.report("a terminal: the progress line drawn in place, ending at "
                      f"{total}/{total}",
                      None if last == (str(total), str(total))
                      else f"progress lines {draws[-3:]!r} in {screen[-300:]!r}")
        checks.report("a terminal: the progress line counts up",
                      None if [int(a) for a, _ in draws] == sorted(int(a) for a, _ in draws)
                      else "not in order")
        checks.report("a terminal: the summary names the two refusals",
                      summary_problem(screen, FILES, total, [b.name for b in bad]))
        checks.report("a terminal: each refusal said on its own line too",
                      None if all(re.search(rf"^(\x1b\[K)?{re.escape(str(b))}", screen.replace("\r", "\n"),
                                            re.M) for b in bad)
                      else f"no message naming {bad} in {screen[-500:]!r}")
        written = sorted(p.name for p in out.iterdir())
        checks.report("a terminal: exit status 1, every good file written, the statistics "
                      "on stdout",
                      None if rc == 1 and len(written) == FILES
                      and all(f"file: {g}\n" in stdout for g in good)
                      else f"exit {rc}, {len(written)} files, {stdout.count('file: ')} "
                           "'file:' lines")

        rc, _, err = piped(cmd())
        checks.report("stderr a pipe: no progress line, the summary",
                      "a progress line" if "\r" in err
                      else summary_problem(err, FILES, total, [b.name for b in bad]))

        rc, _, screen = on_terminal(cmd("--quiet"))
        checks.report("--quiet on a terminal: no progress, no summary",
                      None if not REDRAW.search(screen) and "summary:" not in screen
                      and rc == 1
                      else f"exit {rc}, {screen[-300:]!r}")

        rc, _, screen = on_terminal(cmd(files=good[:1]))
        checks.report("one input: no progress, no summary",
                      None if rc == 0 and screen.strip() == "" else f"exit {rc}, {screen!r}")

        rc, _, screen = on_terminal(cmd("--threads", "2", files=good[:50]))
        checks.report("nothing refused: exit 0, a summary without refusals",
                      summary_problem(screen, 50, 50, []) if rc == 0 else f"exit {rc}")
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
