#!/usr/bin/python3
"""The plug-in's dialog in a real GIMP 2.10 (with its GUI, on Xvfb): a batch
command runs plug-in-gpu-histogram RUN-INTERACTIVE on a photo; the test
finds the dialog by its title, takes a screenshot, checks it is not blank
and shows the histogram (the Otsu marker's orange), then closes it with key
presses as a user would: Escape (Cancel: the image must be exactly as it
was), then, in a second run, Alt+E (Equalize) and Return (OK: the image
must be OpenCV's per-channel equalizeHist, as the equalize procedure's).

Usage: ui_gimp_dialog.py PATH-TO-gpu-histogram [SCREENSHOT.png]
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped
(no gimp-2.10, Xvfb, xdotool, ImageMagick's import, or cv2).
"""
import os
import shutil
import subprocess
import sys
import time

from plugin_gimp import ROOT, GimpSession, Tally, require_gimp, scm_str

TITLE = "Histogram (GPU)"
PHOTO = ROOT / "testimages" / "chelsea.png"


def skip(why):
    print(f"{why}: skipping")
    print("0 passed, 0 failed")
    sys.exit(77)


def find_dialog(env, timeout=90):
    """The window id of the visible dialog, or None."""
    end = time.time() + timeout
    while time.time() < end:
        p = subprocess.run(["xdotool", "search", "--onlyvisible", "--name",
                            "^" + TITLE.replace("(", "\\(").replace(")", "\\)") + "$"],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
        ids = p.stdout.split()
        if ids:
            return ids[-1]
        time.sleep(0.5)
    return None


def screenshot(env, window, path):
    subprocess.run(["import", "-window", window, str(path)], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def keys(env, window, *names):
    """Real key presses (XTEST) into the dialog, which takes the focus:
    Xvfb has no window manager to give it."""
    subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env)
    for name in names:
        subprocess.run(["xdotool", "key", "--clearmodifiers", name], env=env)
        time.sleep(0.4)


def picture_checks(t, path, what):
    import cv2
    import numpy as np
    img = cv2.imread(str(path))
    t.check(f"{what}: screenshot readable", img is not None, str(path))
    if img is None:
        return
    h, w = img.shape[:2]
    colours = len(np.unique(img.reshape(-1, 3), axis=0))
    t.check(f"{what}: a dialog-sized window ({w}x{h})", w >= 600 and h >= 400)
    t.check(f"{what}: not blank ({colours} colours, std {img.std():.1f})",
            colours > 200 and img.std() > 20)
    b, g, r = (img[..., k].astype(int) for k in range(3))
    orange = (r > 200) & (g > 80) & (g < 150) & (b < 40)
    t.check(f"{what}: the Otsu marker is drawn ({int(orange.sum())} orange pixels)",
            orange.sum() > 100)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    plugin = sys.argv[1]
    shot_path = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    if not os.environ.get("DISPLAY"):
        # Starts itself again inside a fresh X server.
        if not shutil.which("xvfb-run"):
            skip("xvfb-run not found")
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1400x1000x24",
                               sys.executable] + sys.argv)
    for tool in ("gimp-2.10", "xdotool", "import"):
        if not shutil.which(tool):
            skip(f"{tool} not found")
    require_gimp()
    import cv2
    import numpy as np

    t = Tally()
    with GimpSession(plugin) as s:
        env = dict(s.env, DISPLAY=os.environ["DISPLAY"])
        cancelled, applied = s.tmp / "cancelled.png", s.tmp / "applied.png"
        batch = (f"(let* ((l (gh-load {scm_str(PHOTO)})) (img (car l)) (drw (cadr l)))"
                 f" (plug-in-gpu-histogram RUN-INTERACTIVE img drw)"
                 f" (gh-save img drw {scm_str(cancelled)})"
                 f" (plug-in-gpu-histogram RUN-INTERACTIVE img drw)"
                 f" (gh-save img drw {scm_str(applied)}))")
        gimp = subprocess.Popen(["gimp-2.10", "-n", "-s", "-d", "-f", "-b", batch,
                                 "-b", "(gimp-quit 1)"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            window = find_dialog(env)
            t.check(f"the dialog '{TITLE}' opens", window is not None)
            if window:
                time.sleep(2)  # the preview's first drawing
                first = s.tmp / "dialog.png"
                screenshot(env, window, first)
                picture_checks(t, first, "analyse")
                keys(env, window, "Escape")

                window = find_dialog(env)
                t.check("the dialog opens again", window is not None)
            if window:
                keys(env, window, "alt+e")
                time.sleep(2)  # the preview follows Equalize
                second = s.tmp / "dialog-equalize.png"
                screenshot(env, window, second)
                picture_checks(t, second, "equalize")
                if shot_path:
                    shutil.copy(second, shot_path)
                    print(f"screenshot: {shot_path}")
                keys(env, window, "Return")
            out, _ = gimp.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            gimp.kill()
            out, _ = gimp.communicate()
            t.check("GIMP finishes after the dialogs close", False, out[-2000:])
        original = cv2.imread(str(PHOTO))
        after_cancel = cv2.imread(str(cancelled))
        t.check("Cancel leaves the image exactly as it was",
                after_cancel is not None and np.array_equal(after_cancel, original),
                out[-2000:])
        after_ok = cv2.imread(str(applied))
        want = cv2.merge([cv2.equalizeHist(original[..., k]) for k in range(3)])
        t.check("OK applies Equalize (each channel, as OpenCV's equalizeHist)",
                after_ok is not None and np.array_equal(after_ok, want),
                "no image" if after_ok is None
                else f"{int((after_ok != want).sum())} samples differ")
    t.finish()


if __name__ == "__main__":
    main()
