#!/usr/bin/python3
"""The plug-in's dialogs in a real GIMP 2.10 (with its GUI, on Xvfb), driven by
key presses as a user would, from one batch command:

1. Analyze... (plug-in-gpu-histogram RUN-INTERACTIVE): the dialog, found by
   its title, is screenshot (not blank, the Otsu marker's orange); Escape
   (Cancel) must leave the image exactly as it was.
2. Equalize... opens the dialog with Equalize selected: Return (OK) must give
   OpenCV's per-channel equalizeHist.
3. Analyze... on an image with a display: Alt+B (Binarize, on the value
   channel shown, Otsu) and Return must give OpenCV's THRESH_BINARY |
   THRESH_OTSU of max(R, G, B); then Ctrl+Z, once, in the image window must
   bring the original back exactly (one undo step).  The script waits for the
   test's flag file (file-glob) while the key goes in.
4. Export as CSV... asks for a file (starting at the last one's folder): the
   file written equals the scripted export's.
5. Binarize (Otsu)... on a gray photo opens the dialog with Binarize and Otsu
   selected: Return must give OpenCV's Otsu binarization.

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
CHOOSER = "Export Histogram as CSV"
PHOTO = ROOT / "testimages" / "chelsea.png"
GRAY = ROOT / "testimages" / "camera.png"


def skip(why):
    print(f"{why}: skipping")
    print("0 passed, 0 failed")
    sys.exit(77)


def visible(env, title):
    """Ids of the visible windows whose name matches the regex title."""
    p = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", title],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True)
    return p.stdout.split()


def window_pid(env, window):
    p = subprocess.run(["xdotool", "getwindowpid", window], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip()


def find_window(env, title, done=(), timeout=90):
    """The id of a visible window named exactly title, of a process not in
    done (each dialog is a new plug-in process, whose windows may get the
    same ids as the last one's), or None."""
    pattern = "^" + title.replace("(", "\\(").replace(")", "\\)") + "$"
    end = time.time() + timeout
    while time.time() < end:
        ids = [i for i in visible(env, pattern) if window_pid(env, i) not in done]
        if ids:
            return ids[-1]
        time.sleep(0.3)
    return None


def wait_file(path, timeout=60):
    end = time.time() + timeout
    while time.time() < end and not path.exists():
        time.sleep(0.2)
    time.sleep(0.5)  # written by now: a small PNG
    return path.exists()


def screenshot(env, window, path):
    subprocess.run(["import", "-window", window, str(path)], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def keys(env, window, *names):
    """Real key presses (XTEST) into a window, which takes the focus: Xvfb
    has no window manager to give it."""
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

    t = Tally()
    with GimpSession(plugin) as s:
        env = dict(s.env, DISPLAY=os.environ["DISPLAY"])
        f = {name: s.tmp / name for name in (
            "cancelled.png", "equalized.png", "binarized.png", "undone.png",
            "flag", "scripted.csv", "menu.csv", "gray-binarized.png")}
        q = {name: scm_str(path) for name, path in f.items()}
        batch = (f"(let* ((l (gh-load {scm_str(PHOTO)})) (img (car l)) (drw (cadr l)))"
                 f" (plug-in-gpu-histogram RUN-INTERACTIVE img drw)"
                 f" (gh-save img drw {q['cancelled.png']})"
                 f" (plug-in-gpu-histogram-equalize RUN-INTERACTIVE img drw 0)"
                 f" (gh-save img drw {q['equalized.png']}))"
                 f"(let* ((l (gh-load {scm_str(PHOTO)})) (img (car l)) (drw (cadr l)))"
                 f" (gimp-display-new img)"
                 f" (plug-in-gpu-histogram RUN-INTERACTIVE img drw)"
                 f" (gh-save img drw {q['binarized.png']})"
                 f" (let wait () (if (= 0 (car (file-glob {q['flag']} 0))) (wait)))"
                 f" (gh-save img drw {q['undone.png']})"
                 f" (plug-in-gpu-histogram-export RUN-NONINTERACTIVE img drw {q['scripted.csv']})"
                 f" (plug-in-gpu-histogram-export RUN-INTERACTIVE img drw \"\"))"
                 f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
                 f" (plug-in-gpu-histogram-binarize RUN-INTERACTIVE img drw 0 0)"
                 f" (gh-save img drw {q['gray-binarized.png']}))")
        gimp = subprocess.Popen(["gimp-2.10", "-n", "-s", "-d", "-f", "-b", batch,
                                 "-b", "(gimp-quit 1)"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            drive(t, env, f, shot_path)
            out, _ = gimp.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            gimp.kill()
            out, _ = gimp.communicate()
            t.check("GIMP finishes after the dialogs close", False, out[-2000:])
        compare(t, f, out)
    t.finish()


def drive(t, env, f, shot_path):
    """Plays the user's part, dialog after dialog, as the batch opens them."""
    done = []

    def dialog(what):
        window = find_window(env, TITLE, done)
        t.check(f"{what}: the dialog '{TITLE}' opens", window is not None)
        if window:
            done.append(window_pid(env, window))
        return window

    window = dialog("Analyze...")
    if not window:
        return
    time.sleep(2)  # the preview's first drawing
    screenshot(env, window, f["cancelled.png"].with_name("dialog.png"))
    picture_checks(t, f["cancelled.png"].with_name("dialog.png"), "analyze")
    keys(env, window, "Escape")

    window = dialog("Equalize...")
    if not window:
        return
    time.sleep(2)  # the preview shows Equalize
    shot = f["equalized.png"].with_name("dialog-equalize.png")
    screenshot(env, window, shot)
    picture_checks(t, shot, "equalize")
    if shot_path:
        shutil.copy(shot, shot_path)
        print(f"screenshot: {shot_path}")
    keys(env, window, "Return")

    window = dialog("Analyze... with a display")
    if not window:
        return
    keys(env, window, "alt+b")
    time.sleep(1)
    keys(env, window, "Return")
    if wait_file(f["binarized.png"]):
        image = visible(env, "chelsea")
        t.check("the image window is found", bool(image))
        if image:
            keys(env, image[-1], "ctrl+z")
            time.sleep(1)
    f["flag"].touch()

    window = find_window(env, CHOOSER)
    t.check(f"Export as CSV...: the file chooser '{CHOOSER}' opens", window is not None)
    if not window:
        return
    keys(env, window, "ctrl+a")
    subprocess.run(["xdotool", "type", "--delay", "50", "menu.csv"], env=env)
    keys(env, window, "Return")

    window = dialog("Binarize (Otsu)...")
    if window:
        time.sleep(1)
        keys(env, window, "Return")


def compare(t, f, out):
    import cv2
    import numpy as np
    log = out[-2000:]

    def read(name):
        return cv2.imread(str(f[name]))

    def same(what, got, want):
        t.check(what, got is not None and np.array_equal(got, want),
                f"no image; GIMP said: {log}" if got is None
                else f"{int((got != want).sum())} samples differ")

    original = cv2.imread(str(PHOTO))
    same("Cancel leaves the image exactly as it was", read("cancelled.png"), original)
    same("Equalize... opens on Equalize: OK gives OpenCV's per-channel equalizeHist",
         read("equalized.png"),
         cv2.merge([cv2.equalizeHist(original[..., k]) for k in range(3)]))
    _, bw = cv2.threshold(original.max(axis=2), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    same("Alt+B, OK: Otsu binarization of the value channel, as OpenCV's",
         read("binarized.png"), cv2.merge([bw, bw, bw]))
    same("one Ctrl+Z in the image window brings the original back",
         read("undone.png"), original)
    scripted = f["scripted.csv"].read_bytes() if f["scripted.csv"].exists() else None
    menu = f["menu.csv"].read_bytes() if f["menu.csv"].exists() else None
    t.check("Export as CSV... writes the chosen file, as the scripted export",
            menu is not None and menu == scripted,
            "no file" if menu is None else "the files differ")
    gray = cv2.imread(str(GRAY), cv2.IMREAD_GRAYSCALE)
    _, bw = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    got = cv2.imread(str(f["gray-binarized.png"]), cv2.IMREAD_GRAYSCALE)
    same("Binarize (Otsu)... opens on Otsu: OK gives OpenCV's THRESH_OTSU", got, bw)


if __name__ == "__main__":
    main()
