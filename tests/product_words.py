#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The product speaks of itself: no file says how the work on it was
organised, which a reader cannot look up.  Every tracked text file (git
ls-files in the repository root; the whole tree, less hidden and build
folders, where there is no git) is searched, case-insensitively, for:

  - the word for one sitting of work, alone or inside a name (a run of
    GIMP is a "run" or a "process", a test's GIMP a "gimp-console");
  - the word for a function that helps (say "functions", "utilities");
  - a person who led the work (that word after "the", with "'s", or before
    one of the two words above);
  - a bare reference to a tracker's entry: the word for one, or "#", or
    "stop", followed by a number (a comment says the reason itself; a link
    a reader can open, https://..., is fine);
  - that word at a line's end with its number on the next.

Allowed, and only these: Python's start_new_session (a subprocess
argument), the programs dbus-run-session and debhelper (with dh_* and
debhelper-compat, Debian's packaging tools), GIMP's names for a layer's
copies ("Background copy #12"), and the licence texts (COPYING,
LICENSES/), which are not ours to change.

    product_words.py [ROOT]       (ROOT: the repository, by default this
                                   file's folder's parent)

Prints each hit as PATH:LINE: TEXT, then "N passed, N failed": one check a
file.  Exit status 0 when every file passes, else 1.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

# The words are put together from pieces so that this file, searched like
# every other, does not find itself.
SIT = "ses" + "sion"
HELP = "hel" + "per"
LEAD = "le" + "ad"
ISSUE = "iss" + "ue"

PATTERNS = [
    (SIT, re.compile(SIT, re.I)),
    (HELP, re.compile(HELP, re.I)),
    (LEAD, re.compile(r"\bthe " + LEAD + r"\b|\b" + LEAD + r"['\u2019]s\b|\b" + LEAD
                      + r"\s+(?:" + HELP + "|" + SIT + r"|agent)", re.I)),
    (ISSUE + " N", re.compile(r"\b" + ISSUE + r"s?\s+#?\d", re.I)),
    ("#N", re.compile(r"(?<![\w&/#$'\\])#\d{1,5}(?!\w)")),
    ("stop N", re.compile(r"\bst" + r"op\s+\d", re.I)),
]
# The first word at a line's end, its number at the next line's start
# (after comment marks).
SPLIT_END = re.compile(r"\b" + ISSUE + r"s?\s*#?\s*$", re.I)
SPLIT_START = re.compile(r"^[\s*#;/\"'-]*#?\d")

# Removed from a line before it is searched: links (a reader can open
# them) and the allowed names.
ALLOWED = re.compile(
    r"\b[a-z][a-z0-9+.-]*://\S+"
    r"|start_new_" + SIT
    + r"|dbus-run-" + SIT
    + r"|deb" + HELP
    + r"|\bcopy #\d+", re.I)

LICENCE_TEXTS = ("COPYING", "LICENSES/")


def tracked(root):
    """The files to search, relative to root."""
    try:
        p = subprocess.run(["git", "-C", str(root), "ls-files", "-z"],
                           capture_output=True, check=True)
        names = [n for n in p.stdout.decode("utf-8", "surrogateescape").split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
        for d, dirs, files in os.walk(root):
            dirs[:] = sorted(x for x in dirs
                             if not x.startswith(".") and not x.startswith("build")
                             and x != "__pycache__")
            names += [os.path.relpath(os.path.join(d, f), root) for f in sorted(files)]
    return [n for n in names
            if not any(n == x or n.startswith(x) for x in LICENCE_TEXTS)]


def hits(text):
    """(line number, line) of each line that says a word of the work."""
    lines = text.splitlines()
    found = []
    for k, line in enumerate(lines):
        clean = ALLOWED.sub("", line)
        if any(p.search(clean) for _, p in PATTERNS) or (
                k + 1 < len(lines) and SPLIT_END.search(clean)
                and SPLIT_START.search(ALLOWED.sub("", lines[k + 1]))):
            found.append((k + 1, line))
    return found


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    passed = failed = 0
    for name in tracked(root):
        path = root / name
        if not path.is_file():  # a submodule, or a file deleted but not yet committed
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:  # binary
            continue
        found = hits(data.decode("utf-8", "replace"))
        for n, line in found:
            print(f"{name}:{n}: {line.strip()}")
        if found:
            failed += 1
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
