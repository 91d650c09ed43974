#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GIMP 3's own Undo and Redo on the procedures through the GEGL module
(an Undo restores the layer), in GIMP 3 with its GUI on a private X server.

    plugin_undo.py PLUGIN MODULE

PLUGIN is the GIMP 3 plug-in, MODULE gpu-histogram-gegl.so of the same
build.  With GH_GIMP3_ENV and GH_GIMP3 set (scripts/gimp3-env.sh) it runs
inside that GIMP 3 root, whose Xvfb and xdotool it uses;
GH_GIMP3_UNAVAILABLE, or no gimp-3, Xvfb, xdotool or dbus-run-session:
skipped (77), saying why.

GIMP 3's PDB has no call that undoes: the keys do it, as a user would.
A Python-Fu batch (plugin_undo_fu.py) shows a photo in a window, applies,
and asks for Ctrl+Z or Ctrl+Y; this script presses it in that window
(xdotool) and the batch polls the image until GIMP has handled it:
- plug-in-gpu-histogram-equalize merged through the module (one filter
  made, none left): one Undo restores the pixels exactly and leaves the
  image clean (so the call was ONE undo step), one Redo applies it again;
- plug-in-gpu-histogram-clahe with live TRUE: one Undo empties the filter
  list (pixels as before, image clean), one Redo lists the filter again,
  which then merges as the procedure merged;
- gpu-histogram:equalize appended by a script: the same Undo and Redo.
Every wait is bounded; the test ends within LIMIT seconds, GIMP and its
X server killed, whatever happens.
"""
import fcntl
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve().parent
IMAGE = HERE.parent / "testimages" / "coffee.png"
# meson's limit is 480 s.  A run takes 15-35 s here, a new profile
# included; GIMP 3.2 took minutes to make one on a loaded machine
# (gegl_module.py).
LIMIT = 420
# What this test started, each in a process group of its own: killed whatever
# happens (stop, or the last-resort alarm in main).
STARTED = []


def skip(why):
    print("SKIP:", why)
    return SKIP


def x_server():
    """A private Xvfb; returns (process, ":N").  Xvfb's own choice of a
    free display (-displayfd alone) takes a number another Xvfb holds, so
    numbers are tried in turn, from one of this process's own: a taken
    one makes Xvfb exit ("server already running")."""
    first = 100 + os.getpid() % 400
    for number in range(first, first + 40):
        read, write = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", f":{number}", "-displayfd", str(write),
                                 "-nolisten", "tcp", "-screen", "0", "1280x1024x24"],
                                pass_fds=(write,), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        STARTED.append(xvfb)
        os.close(write)
        # It writes the number and a newline once it accepts connections
        # (read whole: closed before the newline, the pipe would kill it);
        # an exit closes the pipe.
        said, end = b"", time.monotonic() + 30
        while not said.endswith(b"\n") and time.monotonic() < end:
            if not select.select([read], [], [], end - time.monotonic())[0]:
                break
            more = os.read(read, 16)
            if not more:
                break
            said += more
        os.close(read)
        if said.strip() == str(number).encode():
            return xvfb, f":{number}"
        stop(xvfb)
    raise RuntimeError(f"no Xvfb started on displays {first} to {first + 39}")


def stop(process):
    """Ends a process and everything it started (its own process group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def xdotool(env, *args):
    """One xdotool command, bounded (`windowfocus --sync` waits for ever on
    a window that cannot take the focus); its output."""
    try:
        return subprocess.run(["xdotool", *args], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, timeout=30).stdout
    except subprocess.TimeoutExpired:
        return ""


def wait_for(cond, deadline, gimp):
    """cond()'s first true value, or None once GIMP has ended or the
    deadline passed."""
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        if gimp.poll() is not None:
            return cond()
        time.sleep(0.1)
    return None


def drive(env, talk, gimp, deadline):
    """Presses each key the batch asks for in the image's window; returns
    why it stopped early, or None."""
    ready = talk / "ready"
    if not wait_for(ready.exists, deadline, gimp):
        return "GIMP showed no image (no 'ready')"
    # The image's window: its title ends with the image's size.
    size = ready.read_text().strip()
    found = wait_for(lambda: xdotool(env, "search", "--onlyvisible", "--name",
                                     size).split(), deadline, gimp)
    if not found:
        return f"no visible window named '... {size} ...'"
    window = found[-1]
    n = 1
    while True:
        step = talk / f"step-{n}"
        report = talk / "report"
        got = wait_for(lambda: step.exists() or "done\n" in (
            report.read_text() if report.exists() else ""), deadline, gimp)
        if not got:
            return f"GIMP ended or stalled before step {n}"
        if not step.exists():
            return None
        key, what = step.read_text().rstrip("\n").split("\t")
        # XTEST key presses go to the focused window: Xvfb has no window
        # manager to give it the focus.
        xdotool(env, "windowfocus", "--sync", window)
        xdotool(env, "key", "--clearmodifiers", key)
        print(f"pressed {key}: {what}")
        n += 1


def run_gimp(plugin, module, tmp, profile):
    """GIMP with its GUI running plugin_undo_fu.py; returns (report lines,
    why the drive stopped early or None, GIMP's last output)."""
    xvfb, display = x_server()
    talk = tmp / "talk"
    talk.mkdir()
    folder = tmp / "data" / "gegl-0.4" / "plug-ins"
    folder.mkdir(parents=True)
    shutil.copy(module, folder)
    env = {k: v for k, v in os.environ.items() if k not in ("GEGL_PATH", "XAUTHORITY")}
    env.update(DISPLAY=display, XDG_DATA_HOME=str(tmp / "data"),
               GIMP3_DIRECTORY=str(profile), GH_UNDO_DIR=str(talk),
               GH_UNDO_IMAGE=str(IMAGE), BABL_LUT="0", NO_AT_BRIDGE="1")
    log = tmp / "gimp.log"
    deadline = time.monotonic() + LIMIT - 20
    try:
        with open(log, "w") as out, open(HERE / "plugin_undo_fu.py") as script:
            gimp = subprocess.Popen(
                ["dbus-run-session", "--", "gimp-3", "-n", "-s", "-d", "-f",
                 "--batch-interpreter=python-fu-eval", "-b", "-", "--quit"],
                env=env, stdin=script, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True)
            STARTED.append(gimp)
        try:
            why = drive(env, talk, gimp, deadline)
            if why is None:
                try:
                    gimp.wait(timeout=max(1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    pass  # the report is complete: GIMP's end is not tested
        finally:
            stop(gimp)
    finally:
        stop(xvfb)
    report = talk / "report"
    lines = report.read_text().splitlines() if report.exists() else []
    return lines, why, log.read_text(errors="replace")[-3000:]


def main():
    if os.environ.get("GH_GIMP3_UNAVAILABLE"):
        return skip(os.environ["GH_GIMP3_UNAVAILABLE"])
    plugin, module = (Path(a).resolve() for a in sys.argv[1:3])
    if os.environ.get("GH_GIMP3_ENV") and not os.environ.get("GH_INSIDE"):
        env = dict(os.environ, GH_INSIDE="1")
        return subprocess.run(["bash", env["GH_GIMP3_ENV"], "run", "python3", __file__,
                               str(plugin), str(module)], env=env).returncode
    for tool in ("gimp-3", "Xvfb", "xdotool", "dbus-run-session"):
        if not shutil.which(tool):
            return skip(f"no {tool} here (GIMP 3's GUI on Xvfb, keys by xdotool)")
    for f in (plugin, module):
        if not f.exists():
            print(f"FAIL: {f} not built")
            return 1
    # run_gimp ends GIMP and Xvfb by its deadline; should anything still
    # hang, this ends them and the test.
    def last_resort(*_):
        print(f"FAIL: not done in {LIMIT + 30} s")
        for p in STARTED:
            stop(p)
        os._exit(1)
    signal.signal(signal.SIGALRM, last_resort)
    signal.alarm(LIMIT + 30)
    # A profile kept between runs (GIMP 3.2 may spend minutes making one),
    # in the root itself where the test runs in one; one run at a time in
    # it.
    profile = (Path("/var/cache/gpu-histogram-tests") if os.environ.get("GH_INSIDE")
               else plugin.parent) / "undo-gimp-profile"
    plug_in = profile / "plug-ins" / "gpu-histogram"
    plug_in.mkdir(parents=True, exist_ok=True)
    with open(profile.parent / "undo-gimp-profile.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # No welcome dialog: it would take the focus.  GIMP 3.2 shows it
        # whenever the profile's config-version is older than GIMP's (or
        # missing: GIMP, killed, never saves its gimprc).
        version = subprocess.run(["gimp-3", "--version"], capture_output=True,
                                 text=True, timeout=60).stdout.split()[-1]
        (profile / "gimprc").write_text(f'(config-version "{version}")\n'
                                        "(show-welcome-dialog no)\n")
        shutil.copy2(plugin, plug_in / "new")
        os.replace(plug_in / "new", plug_in / "gpu-histogram")
        start = time.monotonic()
        with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
            try:
                lines, why, log = run_gimp(plugin, module, Path(tmp), profile)
            except RuntimeError as e:  # no X server
                lines, why, log = [], str(e), ""
    print(f"GIMP's run: {time.monotonic() - start:.1f} s")
    fails = []
    for line in lines:
        if line == "done":
            continue
        if line.startswith("error "):
            fails.append("the batch stopped: " + line[6:])
            continue
        ok, what = line.split(" ", 1)
        print(f"{'ok  ' if ok == '1' else 'FAIL'} {what}")
        if ok != "1":
            fails.append(what)
    if why:
        fails.append(why)
    if "done" not in lines:
        fails.append("the batch did not finish")
    if fails:
        print("GIMP said:\n" + log)
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
