#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The plug-in's dialogs in a real GIMP (with its GUI, on Xvfb), driven by
key presses and the mouse as a user would, from one batch command; one test
for both hosts (--host, as the plugin_*.py tests):

1. Analyze...: the dialog, found by its title, is screenshot (not blank, the
   Otsu marker's orange); its preview shows the whole photo, scaled to fit
   (found in the screenshot by its scaled copy: not a corner at 1:1); Alt+H
   and End switch the plot to the RGB overlay, which keeps the dialog's
   width; Escape (Cancel) must leave the image exactly as it was.
2. Equalize Histogram... opens the dialog with Equalize selected (screenshot, copied to
   SCREENSHOT.png: meson passes the README's doc/images/dialog-gimp2.png and
   dialog-gimp32.png, so a changed dialog changes its picture): its preview
   shows the whole photo equalized, scaled to fit, and the dialog has the
   first one's width; Ctrl and the mouse wheel on the preview zoom in (no
   longer the whole photo) and back out (the whole photo again); Return
   (OK) must give OpenCV's per-channel equalizeHist.
3. Analyze... on an image with a display: Alt+B (Binarize, on the value
   channel shown, Otsu) and Return must give OpenCV's THRESH_BINARY |
   THRESH_OTSU of max(R, G, B); then one Ctrl+Z in the image window must
   bring the original back exactly (one undo step).  The batch waits for the
   test's flag file (file-glob) while the key goes in.
4. Export as CSV... asks for a file (GIMP 2.10: starting at the last one's
   folder): the file written equals the scripted export's.
5. Binarize (Otsu)... on a gray photo opens with Binarize and Otsu selected:
   Return must give OpenCV's Otsu binarization.
6. GIMP 3 only: Binarize (Otsu)... again: a drag on the plot selects a range
   of levels, Return binarizes at Otsu's threshold over it (OpenCV's
   threshold at the level the procedure returns, not the whole image's
   Otsu); then Filters > Repeat (RUN-WITH-LAST-VALS) on a fresh copy must
   give the same image and threshold: the range was remembered.
7. Analyze... on a gray photo: Alt+L (CLAHE, its first grid and clip limit)
   and Return must give OpenCV's createCLAHE(2.0, (8, 8)).apply.
8. Analyze... on the colour photo with a second image open: the dialog has
   the first one's width (the reference picker's long names do not widen
   it); Alt+R (Match to reference), the reference picker (Alt+F) moved to
   that image's layer and Return must give scikit-image's match_histograms
   per channel, its interpolation rounded (plugin_beyond.py's reference).
9. Analyze... on the gray photo: Alt+Z (Posterize, 3 classes) draws two
   threshold markers on the plot; Return must give the posterize of
   scikit-image's threshold_multiotsu(classes=3); then the analyse
   procedure repeated (RUN-WITH-LAST-VALS) on a fresh copy must give the
   same image: the last action and its classes are remembered.
10. CLAHE (Local Contrast)... (the CLAHE procedure's interactive run, as its menu entry
   calls it) on the gray photo opens the dialog with CLAHE chosen: Return
   alone must give OpenCV's createCLAHE(2.0, (8, 8)).apply.

Every wait is bounded: a window that does not come ends the test there, with
a screenshot of the whole screen (SCREENSHOT-failure.png), the visible
windows' names and GIMP's last lines, GIMP and its plug-ins killed; the
test ends within 560 s (meson's limit: 600).  Each run has a fresh X server
(xvfb-run -a), a fresh GIMP profile and a fresh HOME (GimpConsole).

Usage: ui_gimp_dialog.py [--host gimp2|gimp3] PATH-TO-gpu-histogram [SCREENSHOT.png]
GIMP 2.10 is gimp-2.10 on the PATH.  GIMP 3 runs natively (gimp-3 on the
PATH) or inside the root of scripts/gimp3-env.sh (GH_GIMP3_ENV names it; by
default this checkout's script when there is no gimp-3).  Xvfb, xdotool,
ImageMagick's import, cv2 and scikit-image are the test's own, outside.
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped
(no gimp-2.10, Xvfb, xdotool, import, cv2 or scikit-image, or GIMP 3 marked
unavailable).
"""
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from plugin_beyond import clahe, match_levels, posterized
from plugin_gimp import ROOT, GimpConsole, Tally, parse_args, require_gimp, scm_str

TITLE = "Histogram"
CHOOSER = "Export Histogram as CSV"
PHOTO = ROOT / "testimages" / "chelsea.png"
GRAY = ROOT / "testimages" / "camera.png"
REFERENCE = ROOT / "testimages" / "astronaut.png"
FILES = ("cancelled.png", "equalized.png", "binarized.png", "undone.png",
         "flag", "scripted.csv", "menu.csv", "gray-binarized.png",
         "clahe.png", "matched.png", "posterized.png", "posterize-repeated.png",
         "clahe-menu.png")


def skip(why):
    print(f"{why}: skipping")
    print("0 passed, 0 failed")
    sys.exit(77)


# --- The X side: windows, keys, screenshots (xdotool, ImageMagick) ---------

def ask(env, *args):
    """What an X query (xdotool) prints; nothing when it takes over 30 s."""
    try:
        return subprocess.run(args, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, timeout=30).stdout
    except subprocess.TimeoutExpired:
        return ""


def visible(env, title):
    """Ids of the visible windows whose name matches the regex title."""
    return ask(env, "xdotool", "search", "--onlyvisible", "--name", title).split()


def window_pid(env, window):
    return ask(env, "xdotool", "getwindowpid", window).strip()


class Abort(Exception):
    """A step's window did not come: the rest would wait on GIMP for nothing."""


def find_window(env, title, done=(), timeout=90, deadline=None):
    """The id of a visible window named exactly title, of a process not in
    done (each dialog is a new plug-in process, whose windows may get the
    same ids as the last one's), or None; never waits past deadline."""
    pattern = "^" + title.replace("(", "\\(").replace(")", "\\)") + "$"
    end = time.time() + timeout
    if deadline:
        end = min(end, deadline)
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


def x11(env, *args):
    """One X command (xdotool, import), bounded: `windowfocus --sync` waits
    for ever on a window that cannot take the focus."""
    try:
        subprocess.run(args, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=30)
    except subprocess.TimeoutExpired:
        raise Abort(f"{' '.join(args)} ends within 30 s")


def screenshot(env, window, path):
    x11(env, "import", "-window", window, str(path))


def keys(env, window, *names):
    """Real key presses (XTEST) into a window, which takes the focus: Xvfb
    has no window manager to give it."""
    x11(env, "xdotool", "windowfocus", "--sync", window)
    for name in names:
        x11(env, "xdotool", "key", "--clearmodifiers", name)
        time.sleep(0.4)


def orange(img):
    """Where a BGR picture has the Otsu marker's orange."""
    b, g, r = (img[..., k].astype(int) for k in range(3))
    return (r > 200) & (g > 80) & (g < 150) & (b < 40)


def marker_lines(path):
    """How many marker lines a screenshot shows: runs of adjacent columns
    holding 30 or more orange pixels each (a line is 2 pixels wide)."""
    import cv2
    import numpy as np
    columns = orange(cv2.imread(str(path))).sum(axis=0) >= 30
    return int(np.sum(columns[1:] & ~columns[:-1]) + columns[0])


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
    # A 1366 x 768 laptop with GIMP's panels leaves about 700 px.
    t.check(f"{what}: the window fits a 1366 x 768 screen ({w}x{h}: at most 1000x700)",
            w <= 1000 and h <= 700)
    t.check(f"{what}: not blank ({colours} colours, std {img.std():.1f})",
            colours > 200 and img.std() > 20)
    marker = orange(img)
    t.check(f"{what}: the Otsu marker is drawn ({int(marker.sum())} orange pixels)",
            marker.sum() > 100)


def photo_shown(shot, want, where=False):
    """How well the screenshot shows the picture `want` (BGR) scaled to fit
    a preview: the best normalized correlation of its scaled copies, from
    120 pixels wide to its own width, anywhere in the screenshot (1: the
    same pixels), and that width; with `where`, also the copy's centre."""
    import cv2
    img = cv2.cvtColor(cv2.imread(str(shot)), cv2.COLOR_BGR2GRAY)
    gray = cv2.cvtColor(want, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape

    def score(width):
        height = round(h * width / w)
        if width > img.shape[1] or height > img.shape[0]:
            return -1.0
        small = cv2.resize(gray, (width, height), interpolation=cv2.INTER_AREA)
        return float(cv2.matchTemplate(img, small, cv2.TM_CCOEFF_NORMED).max())

    coarse = max(range(120, w + 1, 6), key=score)
    best = max(range(max(120, coarse - 5), min(w, coarse + 5) + 1), key=score)
    if not where:
        return score(best), best
    height = round(h * best / w)
    small = cv2.resize(gray, (best, height), interpolation=cv2.INTER_AREA)
    _, _, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(img, small, cv2.TM_CCOEFF_NORMED))
    return score(best), best, (x + best // 2, y + height // 2)


def preview_checks(t, shot, want, what):
    """The preview in the screenshot is the whole of `want`, scaled."""
    match, width = photo_shown(shot, want)
    t.check(f"{what}: the preview shows the whole photo, scaled to fit "
            f"(correlation {match:.3f} at {width} pixels wide)", match > 0.9)


def reddish(shot):
    """How many pixels of a screenshot are clearly red (the overlay's red
    bars)."""
    import cv2
    b, g, r = (cv2.imread(str(shot))[..., k].astype(int) for k in range(3))
    return int(((r - g > 60) & (r - b > 60)).sum())


def part_shown(shot, want, width, centre):
    """How well the preview (`width` pixels wide, the photo's aspect, about
    `centre` in the screenshot) shows a part of `want` scaled up: the best
    correlation of the preview's middle within `want` scaled by 1.2 to 4
    times the fitted scale, and that scale."""
    import cv2
    img = cv2.cvtColor(cv2.imread(str(shot)), cv2.COLOR_BGR2GRAY)
    gray = cv2.cvtColor(want, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    height = round(h * width / w)
    x, y = centre
    # The middle half of the preview: clear of its edges' scroll bars.
    middle = img[y - height // 4:y + height // 4, x - width // 4:x + width // 4]
    best = (-1.0, 0.0)
    for step in range(12, 41):
        scale = width / w * step / 10
        big = cv2.resize(gray, (round(w * scale), round(h * scale)),
                         interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_NEAREST)
        if big.shape[0] < middle.shape[0] or big.shape[1] < middle.shape[1]:
            continue
        score = float(cv2.matchTemplate(big, middle, cv2.TM_CCOEFF_NORMED).max())
        best = max(best, (score, scale))
    return best


def zoom_checks(t, env, window, shot, want, settle):
    """Ctrl and the mouse wheel on the preview zoom in (the whole photo is no
    longer shown, a part of it is, larger: the preview's rectangle of the
    layer at its size) and back out (the whole photo again)."""
    match, width, (x, y) = photo_shown(shot, want, where=True)
    zoomed, back = shot.with_name("zoomed-in.png"), shot.with_name("zoomed-out.png")

    def wheel(button):
        x11(env, "xdotool", "mousemove", "--window", window, str(x), str(y))
        x11(env, "xdotool", "keydown", "ctrl")
        for _ in range(3):
            x11(env, "xdotool", "click", button)
            time.sleep(0.3)
        x11(env, "xdotool", "keyup", "ctrl")
        time.sleep(settle)

    wheel("4")
    screenshot(env, window, zoomed)
    inside, _ = photo_shown(zoomed, want)
    part, scale = part_shown(zoomed, want, width, (x, y))
    t.check(f"Ctrl+wheel up zooms the preview in: no longer the whole photo "
            f"(correlation {inside:.3f}, was {match:.3f}), a part of it at "
            f"{scale:.2f} of its size (correlation {part:.3f})",
            inside < 0.8 and part > 0.8 and scale > width / want.shape[1] * 1.2)
    wheel("5")
    screenshot(env, window, back)
    again, _ = photo_shown(back, want)
    t.check(f"Ctrl+wheel down zooms back to the whole photo (correlation {again:.3f})",
            again > 0.9)


def width_of(shot):
    import cv2
    img = cv2.imread(str(shot))
    return None if img is None else img.shape[1]


def drag_on_plot(env, window, shot):
    """Drags across the plot around its marker: from 70 pixels left of it to
    30 right (the plot is found by the marker's orange column)."""
    import cv2
    import numpy as np
    ys, xs = np.nonzero(orange(cv2.imread(str(shot))))
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
        x11(env, "xdotool", *step)
        time.sleep(0.4)
    return True


# --- What differs between the hosts -----------------------------------------

class Gimp2Gui:
    """GIMP 2.10: gimp-2.10 on this system, procedures called by position."""
    patience = 90  # seconds a dialog may take to open
    settle = 2     # seconds the preview takes to draw
    # GIMP 2.10 titles an image window by the file's name.
    image_title = "chelsea"
    files = ()
    # The reference picker's key to the image loaded last: libgimpui lists
    # the open images newest first.
    newest_drawable_key = "Home"

    def __init__(self, host):
        self.host = host

    def require(self):
        if not shutil.which("gimp-2.10"):
            skip("gimp-2.10 not found")
        require_gimp(self.host, ("cv2", "numpy", "skimage"))

    def prepare(self, console, env):
        pass

    def argv(self, batch):
        # --stack-trace-mode never: a crash ends GIMP at once, not waiting
        # on a terminal for a debugger.
        return ["gimp-2.10", "-n", "-s", "-d", "-f", "--stack-trace-mode", "never",
                "-b", batch, "-b", "(gimp-quit 1)"]

    def call(self, suffix, *positional, mode="RUN-INTERACTIVE"):
        """plug-in-gpu-histogram<suffix>, interactive, on img and drw;
        positional: GIMP 2.10's further arguments, which it cannot leave out."""
        rest = "".join(" " + a for a in positional)
        return f"(plug-in-gpu-histogram{suffix} {mode} img drw{rest})"

    def no_file(self, quoted):
        """Scheme: true while file-glob finds no file quoted."""
        return f"(= 0 (car (file-glob {quoted} 0)))"

    def csv_typed(self, path):
        # The chooser starts at the last export's folder: the name alone.
        return path.name

    def more_batch(self, q):
        return ""

    def more_dialogs(self, t, env, f, dialog):
        pass

    def more_comparisons(self, t, f, out, same, read):
        pass


class Gimp3Gui(Gimp2Gui):
    """GIMP 3: natively or inside the Debian 13 root of scripts/gimp3-env.sh,
    procedures called by name; and Repeat with a dragged range."""
    patience = 180
    settle = 3
    # GIMP 3 titles an image loaded by a script "[Untitled]": its window is
    # found by the photo's size, which the title ends with.
    image_title = "451x300"
    files = ("ranged.png", "repeated.png")

    def require(self):
        if not shutil.which("gimp-3") and not self.host.env_script:
            self.host.env_script = os.environ["GH_GIMP3_ENV"] = str(
                ROOT / "scripts" / "gimp3-env.sh")
        require_gimp(self.host, ("cv2", "numpy", "skimage"))

    def prepare(self, console, env):
        # The first start's welcome dialog would take the focus.
        with open(console.profile / "gimprc", "a") as rc:
            rc.write("(show-welcome-dialog no)\n")
        env["NO_AT_BRIDGE"] = "1"
        # Xvfb's authority file (under /tmp) the GIMP 3 root sees too.
        if os.environ.get("XAUTHORITY"):
            env["XAUTHORITY"] = os.environ["XAUTHORITY"]

    def argv(self, batch):
        """GIMP 3 with its GUI running `batch`, then quitting; with a D-Bus
        of its own (dbus-run-session; gimp3.md section 8)."""
        args = ["dbus-run-session", "--", "gimp-3", "-n", "-s", "-d", "-f",
                "--batch-interpreter=plug-in-script-fu-eval", "-b", batch,
                "-b", "(gimp-quit 1)"]
        if self.host.env_script:
            args = ["bash", self.host.env_script, "run"] + args
        return args

    def call(self, suffix, *positional, mode="RUN-INTERACTIVE"):
        # Arguments left out take their defaults (or the dialog's).
        return (f"(plug-in-gpu-histogram{suffix} #:run-mode {mode}"
                f" #:image img #:drawables (vector drw))")

    def no_file(self, quoted):
        # By name: called by position, each turn of the wait prints three
        # lines of deprecation warning.
        return f"(null? (car (file-glob #:pattern {quoted} #:filename-encoding FALSE)))"

    def csv_typed(self, path):
        return str(path)

    def more_batch(self, q):
        return (f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
                f" (gh-say \"USED\" \"dialog\" (car {self.call('-binarize')}))"
                f" (gh-save img drw {q['ranged.png']}))"
                f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
                f" (gh-say \"USED\" \"repeat\" (gh-binarize RUN-WITH-LAST-VALS img drw 0 -1))"
                f" (gh-save img drw {q['repeated.png']}))")

    def more_dialogs(self, t, env, f, dialog):
        window = dialog("Binarize (Otsu)... with a range")
        time.sleep(self.settle)
        shot = f["ranged.png"].with_name("dialog-range.png")
        screenshot(env, window, shot)
        t.check("a range is dragged on the plot", drag_on_plot(env, window, shot))
        time.sleep(2)
        keys(env, window, "Return")

    def more_comparisons(self, t, f, out, same, read):
        import cv2
        gray = cv2.imread(str(GRAY), cv2.IMREAD_GRAYSCALE)
        otsu, _ = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        used = {}
        for line in out.splitlines():
            if "USED|" in line:
                tag, level = line.split("USED|", 1)[1].split("|")[:2]
                used[tag] = int(float(level))
        dialog, repeat = used.get("dialog"), used.get("repeat")
        log = out[-3000:]
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
             read("repeated.png", cv2.IMREAD_GRAYSCALE),
             read("ranged.png", cv2.IMREAD_GRAYSCALE))


# --- The test, for both hosts -----------------------------------------------

def main():
    host, plugin, shot_path = parse_args("ui_gimp_dialog.py", ("screenshot",))
    shot_path = os.path.abspath(shot_path) if shot_path else None
    if not os.environ.get("DISPLAY"):
        # Starts itself again inside a fresh X server (its socket and
        # authority file under /tmp, which the GIMP 3 root sees too).
        if not shutil.which("xvfb-run"):
            skip("xvfb-run not found")
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1400x1000x24",
                               sys.executable] + sys.argv)
    for tool in ("xdotool", "import"):
        if not shutil.which(tool):
            skip(f"{tool} not found")
    gui = (Gimp3Gui if host.gimp3 else Gimp2Gui)(host)
    gui.require()

    t = Tally()
    # meson kills the test at 600 s: the dialogs get until 480 s after the
    # start, GIMP's end what is left before 560 s, so the test always reports.
    start = time.time()
    with GimpConsole(plugin, host) as s:
        env = dict(s.env, DISPLAY=os.environ["DISPLAY"])
        gui.prepare(s, env)
        f = {name: s.tmp / name for name in FILES + gui.files}
        q = {name: scm_str(path) for name, path in f.items()}
        # GIMP's output goes to a file: a pipe read only at the end fills
        # and blocks GIMP as soon as it has printed 64 KB.
        log_path = s.dir / "gimp.log"
        with open(log_path, "w") as log:
            gimp = subprocess.Popen(gui.argv(batch_commands(gui, q)), env=env,
                                    stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        try:
            drive(t, gui, env, f, shot_path, deadline=start + 480)
            gimp_finished(gimp, host, log_path, max(time.time() + 10, start + 560))
        except Abort as e:
            failure_report(t, env, str(e), shot_path, log_path)
        except subprocess.TimeoutExpired:
            failure_report(t, env, "GIMP finishes after the dialogs close", shot_path,
                           log_path)
        finally:
            stop(gimp)
        compare(t, gui, f, log_path.read_text(errors="replace"))
    t.finish()


def gimp_finished(gimp, host, log_path, deadline):
    """Waits for GIMP to end, until `deadline` (time.time()); raises
    subprocess.TimeoutExpired past it.  Where GIMP 2.10 crashed in its own
    quit after the batch had ended, says so and returns: GIMP itself, on a
    loaded machine, now and then (no plug-in runs then; the checks were all
    made), and at times it hangs after saying so, which stop() ends."""
    def crashed():
        said = log_path.read_text(errors="replace")
        return (not host.gimp3 and "fatal error: Segmentation fault" in said
                and "batch command executed successfully" in said)

    while gimp.poll() is None and not crashed():
        if time.time() > deadline:
            raise subprocess.TimeoutExpired(gimp.args, deadline)
        time.sleep(0.5)
    if crashed():
        print("note: GIMP 2.10 crashed in its own quit, after the batch ended")


def stop(gimp):
    """Ends GIMP and everything it started (its plug-ins, D-Bus), inside the
    GIMP 3 root too: they share its process group."""
    try:
        os.killpg(gimp.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    gimp.wait()


def failure_report(t, env, what, shot_path, log_path):
    """A step failed: what was on screen (a screenshot of the whole screen,
    the visible windows' names) and GIMP's last words, as the failure's
    detail."""
    # In the working folder (meson's build folder), never beside the
    # README's pictures.
    shot = (Path.cwd() / (Path(shot_path).stem + "-failure.png")
            if shot_path else log_path.with_name("failure.png"))
    try:
        x11(env, "import", "-window", "root", str(shot))
    except Abort:
        shot = "(no screenshot: import did not end)"
    names = [ask(env, "xdotool", "getwindowname", w).strip() for w in visible(env, ".")]
    # Less the flag wait's file-glob processes, a line each.
    log = "\n".join(line for line in log_path.read_text(errors="replace").splitlines()
                     if "file-glob" not in line)[-3000:]
    t.check(what, False, f"the screen: {shot}; visible windows: {names}; GIMP said:\n{log}")


def batch_commands(gui, q):
    """The batch that opens the dialogs one after the other (q: the files'
    names, quoted for Scheme)."""
    call = gui.call
    no_name = '""'  # GIMP 2.10's file name for the export that asks for one
    # Cancel makes GIMP 3's procedure return GIMP_PDB_CANCEL, which Script-Fu
    # may take for an error: caught, so the batch goes on.
    return ("(gimp-message-set-handler CONSOLE)"
            f"(let* ((l (gh-load {scm_str(PHOTO)})) (img (car l)) (drw (cadr l)))"
            f" (catch 'cancelled {call('')})"
            f" (gh-save img drw {q['cancelled.png']})"
            f" {call('-equalize', '0')}"
            f" (gh-save img drw {q['equalized.png']}))"
            f"(let* ((l (gh-load {scm_str(PHOTO)})) (img (car l)) (drw (cadr l)))"
            f" (gimp-display-new img)"
            f" {call('')}"
            f" (gh-save img drw {q['binarized.png']})"
            f" (let wait () (if {gui.no_file(q['flag'])} (wait)))"
            f" (gh-save img drw {q['undone.png']})"
            f" (gh-export RUN-NONINTERACTIVE img drw {q['scripted.csv']})"
            f" {call('-export', no_name)})"
            f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
            f" {call('-binarize', '0', '0')}"
            f" (gh-save img drw {q['gray-binarized.png']}))"
            + gui.more_batch(q)
            + f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
            f" {call('')} (gh-save img drw {q['clahe.png']}))"
            # The reference: the layer of the image loaded last.
            f"(let* ((l (gh-load {scm_str(PHOTO)})) (img (car l)) (drw (cadr l))"
            f" (r (gh-load {scm_str(REFERENCE)})))"
            f" {call('')} (gh-save img drw {q['matched.png']}))"
            f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
            f" {call('')} (gh-save img drw {q['posterized.png']}))"
            f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
            f" {call('', mode='RUN-WITH-LAST-VALS')}"
            f" (gh-save img drw {q['posterize-repeated.png']}))"
            f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
            f" {call('-clahe', '2.0', '8', '8', '1')}"
            f" (gh-save img drw {q['clahe-menu.png']}))")


def drive(t, gui, env, f, shot_path, deadline):
    """Plays the user's part, dialog after dialog, as the batch opens them;
    raises Abort when a window does not come (by deadline at the latest)."""
    done = []

    def window_of(what, title, patience, others=()):
        window = find_window(env, title, others, timeout=patience, deadline=deadline)
        if window is None:
            raise Abort(f"{what}: the window '{title}' opens")
        t.check(f"{what}: the window '{title}' opens", True)
        return window

    def dialog(what):
        window = window_of(what, TITLE, gui.patience, done)
        done.append(window_pid(env, window))
        return window

    import cv2
    photo = cv2.imread(str(PHOTO))
    window = dialog("Analyze...")
    time.sleep(gui.settle)  # the preview's first drawing
    shot = f["cancelled.png"].with_name("dialog.png")
    screenshot(env, window, shot)
    picture_checks(t, shot, "analyze")
    preview_checks(t, shot, photo, "analyze")
    width = width_of(shot)
    # The channel picker's last choice: the RGB overlay, its red bars.
    # Alt+H is Help's key too: pressed again, it reaches the picker.
    before = reddish(shot)
    overlay = shot.with_name("dialog-rgb.png")
    for _ in range(3):
        keys(env, window, "alt+h", "End")
        time.sleep(gui.settle)
        screenshot(env, window, overlay)
        if reddish(overlay) > before + 500:
            break
    t.check(f"Alt+H, End: the plot shows the RGB overlay ({reddish(overlay)} red "
            f"pixels, {before} before)", reddish(overlay) > before + 500)
    t.check(f"the RGB overlay keeps the dialog's width ({width_of(overlay)}, "
            f"was {width})", width is not None and width_of(overlay) == width)
    keys(env, window, "Escape")

    window = dialog("Equalize Histogram...")
    time.sleep(gui.settle)  # the preview shows Equalize
    shot = f["equalized.png"].with_name("dialog-equalize.png")
    screenshot(env, window, shot)
    picture_checks(t, shot, "equalize")
    equalized = cv2.merge([cv2.equalizeHist(photo[..., k]) for k in range(3)])
    preview_checks(t, shot, equalized, "equalize")
    t.check(f"Equalize Histogram...: the dialog has Analyze...'s width ({width_of(shot)}, "
            f"was {width})", width is not None and width_of(shot) == width)
    if shot_path:
        shutil.copy(shot, shot_path)
        print(f"screenshot: {shot_path}")
    zoom_checks(t, env, window, shot, equalized, gui.settle)
    keys(env, window, "Return")

    window = dialog("Analyze... with a display")
    time.sleep(1)
    keys(env, window, "alt+b")
    time.sleep(1)
    keys(env, window, "Return")
    if not wait_file(f["binarized.png"], timeout=min(120, deadline - time.time())):
        raise Abort("Alt+B, OK: the binarized image is saved")
    image = visible(env, gui.image_title)
    t.check("the image window is found", bool(image))
    if image:
        keys(env, image[-1], "ctrl+z")
        time.sleep(2)
    f["flag"].touch()

    window = window_of("Export as CSV...", CHOOSER, 120)
    time.sleep(1)
    keys(env, window, "ctrl+a")
    x11(env, "xdotool", "type", "--delay", "50", gui.csv_typed(f["menu.csv"]))
    time.sleep(0.5)
    keys(env, window, "Return")

    window = dialog("Binarize (Otsu)...")
    time.sleep(gui.settle)
    keys(env, window, "Return")

    gui.more_dialogs(t, env, f, dialog)

    window = dialog("Analyze... to CLAHE")
    time.sleep(gui.settle)
    keys(env, window, "alt+l")
    time.sleep(gui.settle)  # the preview's CLAHE
    screenshot(env, window, f["clahe.png"].with_name("dialog-clahe.png"))
    keys(env, window, "Return")

    window = dialog("Analyze... to match")
    time.sleep(gui.settle)
    shot = f["matched.png"].with_name("dialog-images.png")
    screenshot(env, window, shot)
    t.check(f"with more images open the dialog keeps its width ({width_of(shot)}, "
            f"was {width})", width is not None and width_of(shot) == width)
    # The picker lists every drawable of every open image; the focus
    # back on the radio button, where Return means OK.
    keys(env, window, "alt+r", "alt+f", gui.newest_drawable_key, "alt+r")
    time.sleep(gui.settle)
    screenshot(env, window, f["matched.png"].with_name("dialog-match.png"))
    keys(env, window, "Return")

    window = dialog("Analyze... to posterize")
    time.sleep(gui.settle)
    keys(env, window, "alt+z")
    time.sleep(gui.settle)
    shot = f["posterized.png"].with_name("dialog-posterize.png")
    screenshot(env, window, shot)
    lines = marker_lines(shot)
    t.check(f"posterize in 3 classes: the plot marks 2 thresholds ({lines} marker "
            "lines)", lines == 2)
    keys(env, window, "Return")

    # No key but OK: the dialog must open on CLAHE by itself.
    window = dialog("CLAHE (Local Contrast)...")
    time.sleep(gui.settle)
    screenshot(env, window, f["clahe-menu.png"].with_name("dialog-clahe-menu.png"))
    keys(env, window, "Return")


def compare(t, gui, f, out):
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
    same("Equalize Histogram... opens on Equalize: OK gives OpenCV's per-channel equalizeHist",
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
    same("Binarize (Otsu)... opens on Otsu: OK gives OpenCV's THRESH_OTSU",
         read("gray-binarized.png", cv2.IMREAD_GRAYSCALE), bw)
    gui.more_comparisons(t, f, out, same, read)

    same("Alt+L, OK: CLAHE as OpenCV's createCLAHE(2.0, (8, 8))",
         read("clahe.png", cv2.IMREAD_GRAYSCALE), clahe(gray, 2.0, 8, 8))
    reference = cv2.imread(str(REFERENCE))
    same("Alt+R, the other image's layer, OK: each channel matched to it, as "
         "scikit-image's match_histograms (rounded)", read("matched.png"),
         cv2.merge([np.floor(match_levels(original[..., k], reference[..., k]) + 0.5)
                    .astype(np.uint8) for k in range(3)]))
    from skimage.filters import threshold_multiotsu
    want = posterized(gray, threshold_multiotsu(gray, classes=3).astype(int).tolist(), 3)
    same("Alt+Z, OK: posterized at scikit-image's threshold_multiotsu (3 classes)",
         read("posterized.png", cv2.IMREAD_GRAYSCALE), want)
    same("the analyse procedure repeated (RUN-WITH-LAST-VALS) posterizes again",
         read("posterize-repeated.png", cv2.IMREAD_GRAYSCALE), want)
    same("CLAHE (Local Contrast)... opens on CLAHE: OK gives OpenCV's createCLAHE(2.0, (8, 8))",
         read("clahe-menu.png", cv2.IMREAD_GRAYSCALE), clahe(gray, 2.0, 8, 8))


if __name__ == "__main__":
    main()
