# SPDX-License-Identifier: GPL-3.0-or-later
# Python-Fu, run by tests/plugin_undo.py in GIMP 3 with its GUI (-b - <
# this): the procedures through the GEGL module, then GIMP's own Undo and
# Redo, pressed by the test in the image's window.  GH_UNDO_IMAGE: the PNG;
# GH_UNDO_DIR: the folder both sides talk through:
#   ready     written once the image has its window: "<width>x<height>"
#   step-<n>  "<key>\t<what>": press key now (written whole, by rename)
#   report    a line per check: "<0|1> <what> <detail>"; "error <text>"
#             where the script stopped; "done" at its end
# After each key the script polls the image (pixels, filters) until it
# changes, for at most TIMEOUT seconds: nothing is timed, nothing races.
import os
import time
import traceback
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, Gio

TIMEOUT = 30
DIR = os.environ["GH_UNDO_DIR"]
report = open(os.path.join(DIR, "report"), "w")
steps = 0


def say(ok, what, detail=""):
    report.write("%d %s%s\n" % (int(bool(ok)), what, " (%s)" % detail if detail else ""))
    report.flush()


def write_whole(name, text):
    with open(os.path.join(DIR, name + ".tmp"), "w") as f:
        f.write(text)
    os.rename(os.path.join(DIR, name + ".tmp"), os.path.join(DIR, name))


def pixels(layer):
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    return bytes(layer.get_buffer().get(rect, 1.0, "R'G'B' u8", Gegl.AbyssPolicy.NONE))


def filters(layer):
    return [f.get_operation_name() for f in layer.get_filters()]


def press(key, what, changed):
    """Has the test press key in the image's window, then waits until
    changed() (GIMP has handled it); False when it never does."""
    global steps
    # What a script must do after changing an image: GIMP 3.2 updates
    # the Undo and Redo actions only then (3.0 at once), and the keys of
    # an insensitive action do nothing.
    Gimp.displays_flush()
    steps += 1
    write_whole("step-%d" % steps, "%s\t%s\n" % (key, what))
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        if changed():
            return True
        time.sleep(0.05)
    return False


def procedure(img, layer, name, **props):
    proc = Gimp.get_pdb().lookup_procedure(name)
    args = proc.create_config()
    args.set_property("image", img)
    args.set_core_object_array("drawables", [layer])
    for k, v in props.items():
        args.set_property(k, v)
    return proc.run(args).index(0) == Gimp.PDBStatusType.SUCCESS


def next_filter_id(layer):
    # Filter IDs are handed out in turn (plugin_live_fu.py's probe).
    probe = Gimp.DrawableFilter.new(layer, "gegl:invert-gamma", "probe")
    n = probe.get_id()
    probe.delete()
    return n


def undo_redo(img, layer, what, before, applied, live_op=None):
    """One Ctrl+Z must bring `before` back (pixels, no filter, the image
    clean: exactly one undo step), one Ctrl+Y `applied` (or, live, the
    filter back on the list)."""
    if live_op:
        gone = press("ctrl+z", "undo " + what, lambda: not filters(layer))
    else:
        gone = press("ctrl+z", "undo " + what, lambda: pixels(layer) != applied)
    say(gone and pixels(layer) == before and not filters(layer),
        "one Undo restores the layer after " + what,
        "" if gone else "nothing changed in %d s" % TIMEOUT)
    say(gone and not img.is_dirty(),
        "the image is clean again: the call was one undo step")
    if live_op:
        back = press("ctrl+y", "redo " + what, lambda: filters(layer))
        say(gone and back and filters(layer) == [live_op] and pixels(layer) == before,
            "one Redo puts the live filter back", "filters %s" % filters(layer))
    else:
        back = press("ctrl+y", "redo " + what, lambda: pixels(layer) != before)
        say(gone and back and pixels(layer) == applied and not filters(layer),
            "one Redo applies it again",
            "" if back else "nothing changed in %d s" % TIMEOUT)


def main():
    Gegl.init(None)
    say(Gegl.has_operation("gpu-histogram:equalize"), "GIMP has the module")
    img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                         Gio.File.new_for_path(os.environ["GH_UNDO_IMAGE"]))
    layer = img.get_layers()[0]
    display = Gimp.Display.new(img)
    Gimp.displays_flush()
    img.clean_all()
    write_whole("ready", "%dx%d\n" % (img.get_width(), img.get_height()))

    # Merged through the module: one filter made (the probes before and
    # after it count them) and merged, none left.
    first = next_filter_id(layer)
    img.clean_all()
    before = pixels(layer)
    ok = procedure(img, layer, "plug-in-gpu-histogram-equalize", mode=0)
    applied = pixels(layer)
    say(ok and applied != before and not filters(layer),
        "equalize merged", "status %s, changed %s, filters %s"
        % (ok, applied != before, filters(layer)))
    undo_redo(img, layer, "plug-in-gpu-histogram-equalize (merged)", before, applied)
    made = next_filter_id(layer) - first - 1
    say(made == 1, "it made one filter: it went through the module", "made %d" % made)

    # Live through the procedure: the filter listed, the pixels as they
    # were; merged after the Redo, the procedure's merged result.
    img.clean_all()
    before = pixels(layer)
    copy = img.duplicate()
    procedure(copy, copy.get_layers()[0], "plug-in-gpu-histogram-clahe")
    merged = pixels(copy.get_layers()[0])
    copy.delete()
    ok = procedure(img, layer, "plug-in-gpu-histogram-clahe", live=True)
    say(ok and filters(layer) == ["gpu-histogram:clahe"] and pixels(layer) == before,
        "CLAHE live: the filter listed, pixels unchanged", "filters %s" % filters(layer))
    undo_redo(img, layer, "plug-in-gpu-histogram-clahe (live)", before, None,
              "gpu-histogram:clahe")
    layer.merge_filters()
    say(pixels(layer) == merged and not filters(layer),
        "the live filter brought back merges as the procedure merged")

    # A script's (or the menu's) live filter, appended by GIMP itself.
    img.clean_all()
    before = pixels(layer)
    flt = Gimp.DrawableFilter.new(layer, "gpu-histogram:equalize", "equalize")
    flt.update()
    layer.append_filter(flt)
    say(filters(layer) == ["gpu-histogram:equalize"], "gpu-histogram:equalize appended",
        "filters %s" % filters(layer))
    undo_redo(img, layer, "an appended gpu-histogram:equalize", before, None,
              "gpu-histogram:equalize")
    display.delete()
    img.delete()


try:
    main()
except Exception:
    report.write("error " + traceback.format_exc().replace("\n", " | ") + "\n")
report.write("done\n")
report.close()
