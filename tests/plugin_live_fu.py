# Python-Fu, run by tests/plugin_live.py in gimp-console-3 (-b - < this):
# the GIMP 3 procedures with `live` FALSE and TRUE.  Reads GH_LIVE_CASES
# (lines of tab-separated fields: PNG, run mode (a Gimp.RunMode name),
# procedure, PROP=VALUE... ("select=x,y,w,h": a rectangle selected)) and
# GH_LIVE_OUT (a folder); writes there per case <n>-merged.raw and
# <n>-live.raw (the pixels after the live filter was merged) and to
# GH_LIVE_REPORT per case "case <n> <merged: status> <filters left>
# <filters the procedure made> <return> <live: status> <listed> <pixels
# unchanged while live>".
import glob
import os
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, Gio


def pixels(layer):
    fmt = ("Y'" if layer.is_gray() else "R'G'B'") + ("A" if layer.has_alpha() else "") + " u8"
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    return bytes(layer.get_buffer().get(rect, 1.0, fmt, Gegl.AbyssPolicy.NONE))


def next_filter_id(layer):
    # Filter IDs are handed out in turn: a probe's tells how many filters
    # were made since the last one (the module's; GIMP's threshold).
    probe = Gimp.DrawableFilter.new(layer, "gegl:invert-gamma", "probe")
    n = probe.get_id()
    probe.delete()
    return n


def forget(procedure):
    # An interactive run takes the remembered settings where there are
    # any (GIMP 3's rule): without them, a first run's, the ones given.
    folder = os.path.join(os.environ["GIMP3_DIRECTORY"], "plug-in-settings")
    for name in glob.glob(os.path.join(folder, f"*{procedure}.last")):
        os.remove(name)


def run(png, mode, procedure, props, live):
    img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(png))
    layer = img.get_layers()[0]
    before = pixels(layer)
    first = next_filter_id(layer)
    proc = Gimp.get_pdb().lookup_procedure(procedure)
    args = proc.create_config()
    if mode == "INTERACTIVE":
        forget(procedure)
    args.set_property("run-mode", getattr(Gimp.RunMode, mode))
    args.set_property("image", img)
    args.set_core_object_array("drawables", [layer])
    for p in props:
        name, value = p.split("=")
        if name == "select":
            img.select_rectangle(Gimp.ChannelOps.REPLACE, *map(int, value.split(",")))
            continue
        args.set_property(name, float(value) if "." in value else int(value))
    args.set_property("live", live)
    values = proc.run(args)
    status = values.index(0)
    # Binarize's threshold (multi-Otsu's array: "-", not compared).
    ret = values.index(1) if values.length() > 1 else None
    ret = ret if isinstance(ret, int) else "-"
    filters = [f.get_operation_name() for f in layer.get_filters()]
    made = next_filter_id(layer) - first - 1
    unchanged = pixels(layer) == before
    layer.merge_filters()
    result = pixels(layer)
    img.delete()
    return int(status), filters, made, ret, unchanged, result


Gegl.init(None)
out = os.environ["GH_LIVE_OUT"]
report = open(os.environ["GH_LIVE_REPORT"], "w")
for n, line in enumerate(open(os.environ["GH_LIVE_CASES"])):
    png, mode, procedure, *props = line.rstrip("\n").split("\t")
    status, filters, made, ret, _, merged = run(png, mode, procedure, props, False)
    open(f"{out}/{n}-merged.raw", "wb").write(merged)
    lstatus, lfilters, _, _, unchanged, live = run(png, mode, procedure, props, True)
    open(f"{out}/{n}-live.raw", "wb").write(live)
    report.write(f"case {n} {status} {len(filters)} {made} {ret} {lstatus} "
                 f"{int(any(f.startswith('gpu-histogram:') for f in lfilters))} "
                 f"{int(unchanged)}\n")
    report.flush()
report.close()
