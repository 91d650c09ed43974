#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The README's before/after strip stays true: scripts/make-figures.sh is
run with the built CLI into a temporary folder, and the strip it makes
must equal doc/images/before-after.png pixel for pixel (decoded: PNG
bytes may differ between encoders).  Each panel is checked on its own
too, so a failure says which one moved: the first is the photo itself
(testimages/chelsea.png), the last holds only black and white, and the
middle two differ from the photo.

Usage: doc_figures.py PATH-TO-gpu-histogram-cli
Exit status: 0 passed, 1 failed, 77 (skipped) without cv2/numpy,
ImageMagick's convert, or in a CLI built without GEGL (no PNG).
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAP = 6            # the white columns between panels (make-figures.sh)
NAMES = ["original", "equalized", "CLAHE", "Otsu"]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: doc_figures.py PATH-TO-gpu-histogram-cli")
    try:
        import cv2
        import numpy as np
    except ImportError as e:
        print(f"cannot import cv2/numpy ({e}): skipping")
        sys.exit(77)
    if shutil.which("convert") is None:
        print("no ImageMagick convert: skipping")
        sys.exit(77)
    cli = sys.argv[1]
    passed = failed = 0

    def check(what, ok, detail=""):
        nonlocal passed, failed
        print(f"ok   {what}" if ok else f"FAIL {what}: {detail}")
        passed, failed = passed + bool(ok), failed + (not ok)

    with tempfile.TemporaryDirectory(prefix="gh-figures-") as tmp:
        made = Path(tmp) / "before-after.png"
        p = subprocess.run(["bash", str(ROOT / "scripts" / "make-figures.sh"), cli, str(made)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if "without GEGL" in p.stdout:
            print(f"{p.stdout.strip()}: skipping")
            sys.exit(77)
        check("make-figures.sh ran", p.returncode == 0 and made.exists(), p.stdout)
        if p.returncode != 0 or not made.exists():
            sys.exit(1)
        got = cv2.imread(str(made), cv2.IMREAD_UNCHANGED)
    want = cv2.imread(str(ROOT / "doc" / "images" / "before-after.png"), cv2.IMREAD_UNCHANGED)
    photo = cv2.imread(str(ROOT / "testimages" / "chelsea.png"), cv2.IMREAD_UNCHANGED)
    h, w = photo.shape[:2]
    size = (h, 4 * w + 3 * GAP, 3)
    check(f"the strip is {size[1]} x {size[0]} RGB", got.shape == size, str(got.shape))
    check("the committed strip has that size", want is not None and want.shape == size,
          "missing" if want is None else str(want.shape))
    if got.shape != size or want is None or want.shape != size:
        sys.exit(1)
    for k, name in enumerate(NAMES):
        x = k * (w + GAP)
        g, c = got[:, x:x + w], want[:, x:x + w]
        check(f"panel {k + 1} ({name}) equals the committed one",
              (g == c).all(), f"{(g != c).sum()} samples differ")
        if k == 0:
            check("panel 1 is the photo", (g == photo).all(), f"{(g != photo).sum()} samples differ")
        elif k < 3:
            check(f"panel {k + 1} ({name}) changed the photo", (g != photo).any())
        else:
            check("panel 4 (Otsu) is black and white only", set(np.unique(g).tolist()) == {0, 255},
                  str(np.unique(g)[:10]))
        if k:
            gap = got[:, x - GAP:x]
            check(f"the gap before panel {k + 1} is white", (gap == 255).all())
    check("the whole strip equals the committed one", (got == want).all(),
          f"{(got != want).sum()} samples differ")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
