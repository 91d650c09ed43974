#!/usr/bin/python3
"""The plug-in's dialogs in a real GIMP 3 (with its GUI, on Xvfb), driven by
key presses and the mouse as a user would, from one batch command: the
GIMP 2.10 test (ui_gimp_dialog.py) for the GIMP 3 host, plus Repeat.

1. Analyze...: the dialog, found by its title, is screenshot (not blank, the
   Otsu marker's orange); Escape (Cancel) must leave the image exactly as it
   was.
2. Equalize... opens the dialog with Equalize selected (screenshot, copied to
   SCREENSHOT.png): Return (OK) must give OpenCV's per-channel equalizeHist.
3. Analyze... on an image with a display: Alt+B (Binarize, on the value
   channel shown, Otsu) and Return must give OpenCV's THRESH_BINARY |
   THRESH_OTSU of max(R, G, B); then one Ctrl+Z in the image window must
   bring the original back exactly.  The batch waits for the test's flag
   file (file-glob) while the key goes in.
4. Export as CSV... asks for a file with the dialog's chooser: the file
   written equals the scripted export's.
5. Binarize (Otsu)... on a gray photo opens with Binarize and Otsu selected:
   Return must give OpenCV's Otsu binarization.
6. Binarize (Otsu)... again: a drag on the plot selects a range of levels,
   Return binarizes at Otsu's threshold over it (OpenCV's threshold at the
   level the procedure returns, not the whole image's Otsu); then Filters >
   Repeat (RUN-WITH-LAST-VALS) on a fresh copy must give the same image and
   threshold: the range was remembered.

Usage: ui_gimp3_dialog.py PATH-TO-gpu-histogram [SCREENSHOT.png]
GIMP 3 runs natively (gimp-3.0 on the PATH) or inside the root of
scripts/gimp3-env.sh (GH_GIMP3_ENV names it; by default this checkout's
script when there is no gimp-3.0); Xvfb, xdotool, ImageMagick's import and
cv2 are the test's own, outside.  Ends with "N passed, N failed"; exit 0 all
passed, 1 a failure, 77 skipped (no Xvfb, xdotool, import or cv2, or GIMP 3
marked unavailable).
"""
import os
import shutil
import subprocess
import sys
import time

from plugin_gimp import ROOT, GimpSession, Host, Tally, require_gimp, scm_str
from ui_gimp_dialog import (CHOOSER, GRAY, PHOTO, TITLE, find_window, keys,
                            picture_checks, screenshot, skip, visible, wait_file,
                            window_pid)


def gimp_gui_argv(host, batch):
    """GIMP 3 with its GUI running `batch`, then quitting; in a D-Bus session
    of its own (gimp3.md section 8)."""
    args = ["dbus-run-session", "--", "gimp-3.0", "-n", "-s", "-d", "-f",
            "--batch-interpreter=plug-in-script-fu-eval", "-b", batch,
            "-b", "(gimp-quit 1)"]
    if host.env_script:
        args = ["bash", host.env_script, "run"] + args
    return args


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    plugin = sys.argv[1]
    shot_path = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    if not os.environ.get("DISPLAY"):
        # Starts itself again inside a fresh X server, whose socket and
        # authority file (under /tmp) the GIMP 3 root sees too.
        if not shutil.which("xvfb-run"):
            skip("xvfb-run not found")
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1400x1000x24",
                               sys.executable] + sys.argv)
    for tool in ("xdotool", "import"):
        if not shutil.which(tool):
            skip(f"{tool} not found")
    if not shutil.which("gimp-3.0") and not os.environ.get("GH_GIMP3_ENV"):
        os.environ["GH_GIMP3_ENV"] = str(ROOT / "scripts" / "gimp3-env.sh")
    host = Host("gimp3")
    require_gimp(host)

    t = Tally()
    with GimpSession(plugin, host) as s:
        # The first start's welcome dialog would take the focus.
        with open(s.profile / "gimprc", "a") as rc:
            rc.write("(show-welcome-dialog no)\n")
        env = dict(s.env, DISPLAY=os.environ["DISPLAY"], NO_AT_BRIDGE="1")
        if os.environ.get("XAUTHORITY"):
            env["XAUTHORITY"] = os.environ["XAUTHORITY"]
        f = {name: s.tmp / name for name in (
            "cancelled.png", "equalized.png", "binarized.png", "undone.png",
            "flag", "scripted.csv", "menu.csv", "gray-binarized.png",
            "ranged.png", "repeated.png")}
        q = {name: scm_str(path) for name, path in f.items()}

        def proc(name, img, drw, *args):
            rest = " ".join(args)
            return (f"(plug-in-gpu-histogram{name} #:run-mode RUN-INTERACTIVE"
                    f" #:image {img} #:drawables (vector {drw}) {rest})")

        # Cancel makes the procedure return GIMP_PDB_CANCEL, which Script-Fu
        # may take for an error: caught, so the batch goes on.
        batch = ("(gimp-message-set-handler CONSOLE)"
                 f"(let* ((l (gh-load {scm_str(PHOTO)})) (img (car l)) (drw (cadr l)))"
                 f" (catch 'cancelled {proc('', 'img', 'drw')})"
                 f" (gh-save img drw {q['cancelled.png']})"
                 f" {proc('-equalize', 'img', 'drw')}"
                 f" (gh-save img drw {q['equalized.png']}))"
                 f"(let* ((l (gh-load {scm_str(PHOTO)})) (img (car l)) (drw (cadr l)))"
                 f" (gimp-display-new img)"
                 f" {proc('', 'img', 'drw')}"
                 f" (gh-save img drw {q['binarized.png']})"
                 f" (let wait () (if (null? (car (file-glob {q['flag']} 0))) (wait)))"
                 f" (gh-save img drw {q['undone.png']})"
                 f" (gh-export RUN-NONINTERACTIVE img drw {q['scripted.csv']})"
                 f" {proc('-export', 'img', 'drw')})"
                 f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
                 f" {proc('-binarize', 'img', 'drw')}"
                 f" (gh-save img drw {q['gray-binarized.png']}))"
                 f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
                 f" (gh-say \"USED\" \"dialog\" (car {proc('-binarize', 'img', 'drw')}))"
                 f" (gh-save img drw {q['ranged.png']}))"
                 f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
                 f" (gh-say \"USED\" \"repeat\" (gh-binarize RUN-WITH-LAST-VALS img drw 0 -1))"
                 f" (gh-save img drw {q['repeated.png']}))")
        gimp = subprocess.Popen(gimp_gui_argv(host, batch), env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
        try:
            drive(t, env, f, shot_path)
            out, _ = gimp.communicate(timeout=180)
        except subprocess.TimeoutExpired:
            gimp.kill()
            out, _ = gimp.communicate()
            t.check("GIMP finishes after the dialogs close", False, out[-3000:])
        compare(t, f, out)
    t.finish()


def drag_on_plot(env, window, shot):
    """Drags across the plot around its marker: from 70 pixels left of it to
    30 right (the plot is found by the marker's orange column)."""
    import cv2
    import numpy as np
    img = cv2.imread(str(shot))
    b, g, r = (img[..., k].astype(int) for k in range(3))
    ys, xs = np.nonzero((r > 200) & (g > 80) & (g < 150) & (b < 40))
    if len(xs) == 0:
        return False
    x = int(np.bincount(xs).argmax())  # the line: the most orange column
    column = ys[xs == x]
    y = int((column.min() + column.max()) / 2)
    for step in (["mousemove", "--window", window, str(x - 70), str(y)],
                 ["mousedown", "1"],
                 ["mousemove", "--window", window, str(x - 20), str(y)],
                 ["mousemove", "--window", window, str(x + 30), str(y)],
                 ["mouseup", "1"]):
        subprocess.run(["xdotool"] + step, env=env)
        time.sleep(0.4)
    return True


def drive(t, env, f, shot_path):
    """Plays the user's part, dialog after dialog, as the batch opens them."""
    done = []

    def dialog(what):
        window = find_window(env, TITLE, done, timeout=180)
        t.check(f"{what}: the dialog '{TITLE}' opens", window is not None)
        if window:
            done.append(window_pid(env, window))
        return window

    window = dialog("Analyze...")
    if not window:
        return
    time.sleep(3)  # the preview's first drawing
    shot = f["cancelled.png"].with_name("dialog.png")
    screenshot(env, window, shot)
    picture_checks(t, shot, "analyze")
    keys(env, window, "Escape")

    window = dialog("Equalize...")
    if not window:
        return
    time.sleep(3)  # the preview shows Equalize
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
    time.sleep(1)
    keys(env, window, "alt+b")
    time.sleep(1)
    keys(env, window, "Return")
    if wait_file(f["binarized.png"], timeout=120):
        # GIMP 3 titles an image loaded by a script "[Untitled]": its
        # window is found by the photo's size, which the title ends with.
        image = visible(env, "451x300")
        t.check("the image window is found", bool(image))
        if image:
            keys(env, image[-1], "ctrl+z")
            time.sleep(2)
    f["flag"].touch()

    window = find_window(env, CHOOSER, timeout=120)
    t.check(f"Export as CSV...: the file chooser '{CHOOSER}' opens", window is not None)
    if window:
        time.sleep(1)
        keys(env, window, "ctrl+a")
        subprocess.run(["xdotool", "type", "--delay", "50", str(f["menu.csv"])], env=env)
        time.sleep(0.5)
        keys(env, window, "Return")

    window = dialog("Binarize (Otsu)...")
    if window:
        time.sleep(2)
        keys(env, window, "Return")

    window = dialog("Binarize (Otsu)... with a range")
    if window:
        time.sleep(3)
        shot = f["ranged.png"].with_name("dialog-range.png")
        screenshot(env, window, shot)
        t.check("a range is dragged on the plot", drag_on_plot(env, window, shot))
        time.sleep(2)
        keys(env, window, "Return")


def compare(t, f, out):
    import cv2
    import numpy as np
    log = out[-3000:]

    def read(name, flags=cv2.IMREAD_COLOR):
        return cv2.imread(str(f[name]), flags)

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
    otsu, bw = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    same("Binarize (Otsu)... opens on Otsu: OK gives OpenCV's THRESH_OTSU",
         read("gray-binarized.png", cv2.IMREAD_GRAYSCALE), bw)

    used = {}
    for line in out.splitlines():
        if "USED|" in line:
            tag, level = line.split("USED|", 1)[1].split("|")[:2]
            used[tag] = int(float(level))
    dialog, repeat = used.get("dialog"), used.get("repeat")
    t.check(f"the dragged range moves Otsu's threshold ({dialog} over the range, "
            f"{int(otsu)} over all levels)", dialog is not None and dialog != int(otsu),
            log if dialog is None else "")
    if dialog is not None:
        _, bw = cv2.threshold(gray, dialog, 255, cv2.THRESH_BINARY)
        same(f"OK binarizes at that threshold ({dialog}), as OpenCV's",
             read("ranged.png", cv2.IMREAD_GRAYSCALE), bw)
    t.check(f"Repeat binarizes at the same threshold ({repeat})",
            repeat is not None and repeat == dialog, log)
    same("Repeat (RUN-WITH-LAST-VALS) gives the dialog's image: the range is remembered",
         read("repeated.png", cv2.IMREAD_GRAYSCALE), read("ranged.png", cv2.IMREAD_GRAYSCALE))


if __name__ == "__main__":
    main()
