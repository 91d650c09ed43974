#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The plug-in's menu in a real GIMP (with its GUI, on Xvfb), opened as a
user opens it: each entry of Filters > Histogram (GPU) chosen from the menu
itself with the keyboard (Alt+R for Filters; H twice, as GIMP's Enhance
shares the letter, and Right for Histogram (GPU); then the entry's
mnemonic), on a gray photo in an image window; one test for
both hosts (--host, as ui_gimp_dialog.py).

1. Analyze... opens the dialog; Escape changes nothing.
2. Binarize (Otsu)... opens the dialog on Binarize, Otsu: Return gives
   OpenCV's THRESH_BINARY | THRESH_OTSU.
3. CLAHE (Local Contrast)... opens it on CLAHE: Return gives OpenCV's
   createCLAHE(2.0, (8, 8)).apply.
4. Equalize Histogram... opens it on Equalize: Return gives OpenCV's
   equalizeHist.
5. Export as CSV... asks for the file; Escape writes nothing.
6. Match Histogram... opens the dialog; Escape changes nothing.
7. Posterize (Multi-level Otsu)... opens it on Posterize: Return gives
   scikit-image's threshold_multiotsu in 3 classes, posterized.
8. Stretch Contrast (Percentiles)... opens it on Stretch: Return gives the
   levels from the 1st to the 99th percentile stretched
   (parity_beyond.stretch_model: scikit-image's rescale_intensity,
   rounded).
After each, Ctrl+Z in the image window brings the photo back.  Then, from
the plug-in's record in GIMP's profile (pluginrc), the menu holds exactly
these eight entries under these names (and, in GIMP 3, the operations are
in Colors too: Auto, Map and the Modify section beside Threshold), each
name being the operation's one name (the GEGL module's title, which the
GEGL tests check).

Every wait is bounded, as in ui_gimp_dialog.py (a window that does not
come ends the test there with a screenshot and GIMP's last lines).

The image window with the submenu open is copied to SCREENSHOT.png where
given (meson passes using.md's doc/images/menu-gimp32.png for GIMP 3.2).

Usage: ui_gimp_menu.py [--host gimp2|gimp3] PATH-TO-gpu-histogram [SCREENSHOT.png]
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import os
import re
import shutil
import subprocess
import sys
import time

from parity_beyond import stretch_model
from plugin_beyond import clahe, posterized
from plugin_gimp import GimpConsole, Tally, parse_args, scm_str
from ui_gimp_dialog import (CHOOSER, GRAY, TITLE, Abort, Gimp2Gui, Gimp3Gui,
                            ask, failure_report, find_window, gimp_finished,
                            keys, skip, stop, visible, wait_file, window_pid,
                            x11)

MENU = "Histogram (GPU)"
# (mnemonic, menu label, what opens, what Return does there)
ENTRIES = [
    ("a", "Analyze...", TITLE, "cancel"),
    ("b", "Binarize (Otsu)...", TITLE, "binarize"),
    ("c", "CLAHE (Local Contrast)...", TITLE, "clahe"),
    ("e", "Equalize Histogram...", TITLE, "equalize"),
    ("x", "Export as CSV...", CHOOSER, "cancel"),
    ("m", "Match Histogram...", TITLE, "cancel"),
    ("p", "Posterize (Multi-level Otsu)...", TITLE, "posterize"),
    ("s", "Stretch Contrast (Percentiles)...", TITLE, "stretch"),
]
# GIMP 3's second entries of the operations, by menu label.
COLORS = {
    "Binarize (Otsu)...": "<Image>/Colors/[Modify]",
    "CLAHE (Local Contrast)...": "<Image>/Colors/Auto",
    "Equalize Histogram...": "<Image>/Colors/Auto",
    "Match Histogram...": "<Image>/Colors/Map",
    "Posterize (Multi-level Otsu)...": "<Image>/Colors/[Modify]",
    "Stretch Contrast (Percentiles)...": "<Image>/Colors/Auto",
}


def batch_commands(gui, q, n):
    """Loads the gray photo into an image window, then saves it each time
    the test's flag for a step appears (the step's result)."""
    steps = "".join(f" (let wait () (if {gui.no_file(q[f'flag{i}'])} (wait)))"
                    f" (gh-save img drw {q[f'step{i}.png']})" for i in range(n))
    return ("(gimp-message-set-handler CONSOLE)"
            f"(let* ((l (gh-load {scm_str(GRAY)})) (img (car l)) (drw (cadr l)))"
            f" (gimp-display-new img) (gimp-displays-flush){steps})")


def window_shot(env, window, path):
    """The window as the screen shows it, open menus included (they are
    windows of their own, which a capture of the window leaves black)."""
    geometry = dict(line.split("=", 1) for line in
                    ask(env, "xdotool", "getwindowgeometry", "--shell", window).split())
    x11(env, "import", "-window", "root", "-crop",
        f"{geometry['WIDTH']}x{geometry['HEIGHT']}+{geometry['X']}+{geometry['Y']}",
        "+repage", str(path))


def drive(t, gui, env, f, shot_path, deadline):
    """Chooses each entry from the menu (the image window with the menu
    open the first time: shot_path, where given); raises Abort when a
    window does not come."""
    done = []
    end = min(time.time() + gui.patience, deadline)
    while time.time() < end and not visible(env, gui.image_title):
        time.sleep(0.5)
    time.sleep(gui.settle)
    for i, (key, label, title, action) in enumerate(ENTRIES):
        image = visible(env, gui.image_title)
        if not image:
            raise Abort("the image window opens")
        # Filte_rs; En_hance, then _Histogram (GPU), opened; the entry.
        keys(env, image[-1], "alt+r", "h", "h", "Right")
        if i == 0 and shot_path:
            time.sleep(1)
            window_shot(env, image[-1], shot_path)
            print(f"screenshot: {shot_path}")
        x11(env, "xdotool", "key", "--clearmodifiers", key)
        if title:
            window = find_window(env, title, done, timeout=gui.patience, deadline=deadline)
            if window is None:
                raise Abort(f"{label} from the menu: the window '{title}' opens")
            t.check(f"{label} from the menu: the window '{title}' opens", True)
            done.append(window_pid(env, window))
            time.sleep(gui.settle)
            keys(env, window, "Escape" if action == "cancel" else "Return")
        # The result applied (a new plug-in process: GIMP 3's start takes
        # seconds), then saved by the batch, then undone.
        time.sleep(gui.settle * (3 if action == "posterize" else 1))
        f[f"flag{i}"].touch()
        if not wait_file(f[f"step{i}.png"], timeout=min(120, deadline - time.time())):
            raise Abort(f"{label}: the image is saved after it")
        if action != "cancel":
            keys(env, image[-1], "ctrl+z")
            time.sleep(1)


def menu_entries(pluginrc):
    """{menu label: [menu paths]} of the plug-in's procedures, as GIMP
    recorded them."""
    text = pluginrc.read_text(errors="replace") if pluginrc.exists() else ""
    entries = {}
    for block in re.split(r"\(proc-def ", text)[1:]:
        if not block.startswith('"plug-in-gpu-histogram'):
            continue
        paths = re.findall(r'\(menu-path "([^"]*)"\)', block)
        labels = [s for s in re.findall(r'"([^"]*)"', block.split("(menu-path")[0])
                  if s.endswith("...")]
        if paths and labels:
            entries[labels[0].replace("_", "")] = paths
    return entries


def compare(t, host, f, profile, log):
    import cv2
    import numpy as np
    from skimage.filters import threshold_multiotsu
    gray = cv2.imread(str(GRAY), cv2.IMREAD_GRAYSCALE)
    _, otsu = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    want = {
        "cancel": gray,
        "binarize": otsu,
        "clahe": clahe(gray, 2.0, 8, 8),
        "equalize": cv2.equalizeHist(gray),
        "posterize": posterized(gray, threshold_multiotsu(gray, classes=3)
                                .astype(int).tolist(), 3),
        "stretch": stretch_model(gray, 1, 99)[0],
    }
    for i, (_, label, _, action) in enumerate(ENTRIES):
        got = cv2.imread(str(f[f"step{i}.png"]), cv2.IMREAD_GRAYSCALE)
        t.check(f"{label}: the image after it ({action})",
                got is not None and np.array_equal(got, want[action]),
                f"no image; GIMP said: {log[-2000:]}" if got is None
                else f"{int((got != want[action]).sum())} pixels differ")

    entries = menu_entries(profile / "pluginrc")
    ours = {label: [p for p in paths if p.endswith(MENU)]
            for label, paths in entries.items()}
    listed = sorted(label for label, paths in ours.items() if paths)
    t.check(f"{len(ENTRIES)} entries in Filters > {MENU} ({len(listed)}: {listed})",
            listed == sorted(label for _, label, _, _ in ENTRIES))
    for label, path in COLORS.items():
        others = [p for p in entries.get(label, []) if not p.endswith(MENU)]
        want_paths = [path] if host.gimp3 else []
        t.check(f"{label}: elsewhere {others or 'nowhere'}", others == want_paths)


def main():
    host, plugin, shot_path = parse_args("ui_gimp_menu.py", ("screenshot",))
    shot_path = os.path.abspath(shot_path) if shot_path else None
    if not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            skip("xvfb-run not found")
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1400x1000x24",
                               sys.executable] + sys.argv)
    for tool in ("xdotool", "import"):
        if not shutil.which(tool):
            skip(f"{tool} not found")
    gui = (Gimp3Gui if host.gimp3 else Gimp2Gui)(host)
    gui.require()
    # GIMP 2.10 titles the image window by the file's name.
    gui.image_title = "camera" if not host.gimp3 else "512x512"

    t = Tally()
    start = time.time()
    with GimpConsole(plugin, host) as s:
        env = dict(s.env, DISPLAY=os.environ["DISPLAY"])
        gui.prepare(s, env)
        names = [f"flag{i}" for i in range(len(ENTRIES))] + \
                [f"step{i}.png" for i in range(len(ENTRIES))]
        f = {name: s.tmp / name for name in names}
        q = {name: scm_str(path) for name, path in f.items()}
        log_path = s.dir / "gimp.log"
        with open(log_path, "w") as log:
            gimp = subprocess.Popen(gui.argv(batch_commands(gui, q, len(ENTRIES))),
                                    env=env, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        try:
            drive(t, gui, env, f, shot_path, deadline=start + 480)
            gimp_finished(gimp, host, log_path, max(time.time() + 10, start + 560))
        except Abort as e:
            failure_report(t, env, str(e), None, log_path)
        except subprocess.TimeoutExpired:
            failure_report(t, env, "GIMP finishes after the menu's entries", None,
                           log_path)
        finally:
            stop(gimp)
        compare(t, host, f, s.profile, log_path.read_text(errors="replace"))
    t.finish()


if __name__ == "__main__":
    main()
