# SPDX-License-Identifier: GPL-3.0-or-later
# Python-Fu, run by tests/plugin_live.py in gimp-console-3 (-b - < this):
# the GIMP 3 procedures with `live` FALSE and TRUE.  Reads GH_LIVE_CASES
# (lines of tab-separated fields: PNG, run mode (a Gimp.RunMode name),
# procedure, PROP=VALUE... ("select=x,y,w,h": a rectangle selected;
# "ellipse=x,y,w,h,feather": an ellipse; "reference=SPEC": match's
# reference, see reference()) and GH_LIVE_OUT (a folder); writes there per
# case <n>-merged.raw and <n>-live.raw (the pixels after the live filter
# was merged) and to GH_LIVE_REPORT per case "case <n> <merged: status>
# <filters left> <filters the procedure made> <return> <live: status>
# <listed> <pixels unchanged while live> <live: the procedure has a live
# argument, none: not, none-refused: and its config refuses one>".  Then, for GH_LIVE_SELECTION ("PNG x,y,w,h,feather"), the
# module's live filter under that ellipse (selection()).
import glob
import os
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, Gio


def pixels(layer):
    # The layer's own format (None): every bit of a 16-bit or linear layer.
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    return bytes(layer.get_buffer().get(rect, 1.0, None, Gegl.AbyssPolicy.NONE))


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


def load(png):
    img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(png))
    return img, img.get_layers()[0]


def select_ellipse(img, value):
    x, y, w, h, feather = map(int, value.split(","))
    Gimp.context_set_antialias(True)
    Gimp.context_set_feather(feather > 0)
    Gimp.context_set_feather_radius(feather, feather)
    img.select_ellipse(Gimp.ChannelOps.REPLACE, x, y, w, h)


def reference(img, spec):
    """Match's reference for SPEC "[PNG][:KIND]": PNG's layer in its own
    image (a name in GH_LIVE_IMAGES, or a path ending in .png); KIND same: copied into the layer's image; select: its image
    with a rectangle selected; indexed: its image made indexed; u16: 16
    bits (non-linear); holes: a
    rectangle of it cleared to transparency; clear: all of it; red: no
    PNG, a channel of the layer's image."""
    png, _, kind = spec.partition(":")
    if kind == "red":
        channel = Gimp.Channel.new_from_component(img, Gimp.ChannelType.RED, "red")
        img.insert_channel(channel, None, 0)
        return channel
    ref_img, ref = load(png if png.endswith(".png")
                        else os.path.join(os.environ["GH_LIVE_IMAGES"], png + ".png"))
    if kind == "same":
        copy = Gimp.Layer.new_from_drawable(ref, img)
        img.insert_layer(copy, None, 1)
        return copy
    if kind == "select":
        ref_img.select_rectangle(Gimp.ChannelOps.REPLACE, 10, 10, 100, 80)
    elif kind == "indexed":
        ref_img.convert_indexed(Gimp.ConvertDitherType.NONE,
                                Gimp.ConvertPaletteType.GENERATE, 64, False, False, "")
        ref = ref_img.get_layers()[0]
    elif kind == "u16":
        ref_img.convert_precision(Gimp.Precision.U16_NON_LINEAR)
        ref = ref_img.get_layers()[0]
    elif kind in ("holes", "clear"):
        ref.add_alpha()
        if kind == "holes":
            ref_img.select_rectangle(Gimp.ChannelOps.REPLACE, 10, 10, 150, 80)
        ref.edit_clear()
        Gimp.Selection.none(ref_img)
    return ref


def run(png, mode, procedure, props, live):
    img, layer = load(png)
    for p in props:
        if p.startswith("precision="):
            img.convert_precision(getattr(Gimp.Precision, p.split("=")[1]))
    before = pixels(layer)
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
        elif name == "ellipse":
            select_ellipse(img, value)
        elif name == "precision":
            pass  # converted at load
        elif name == "reference":
            ref = reference(img, value)
            args.set_property("reference", ref)
        else:
            args.set_property(name, float(value) if "." in value else int(value))
    # Match has no live argument: a script cannot ask (its config has no
    # such property); it runs merged.
    has_live = "live" if any(a.name == "live" for a in proc.get_arguments()) else "none"
    try:
        args.set_property("live", live)
    except TypeError:
        has_live += "-refused"
    # After the reference is made (clearing a selection makes a filter).
    first = next_filter_id(layer)
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
    for other in Gimp.get_images():
        other.delete()
    return int(status), filters, made, ret, unchanged, result, has_live


Gegl.init(None)
out = os.environ["GH_LIVE_OUT"]
report = open(os.environ["GH_LIVE_REPORT"], "w")
for n, line in enumerate(open(os.environ["GH_LIVE_CASES"])):
    png, mode, procedure, *props = line.rstrip("\n").split("\t")
    status, filters, made, ret, _, merged, has_live = run(png, mode, procedure, props, False)
    open(f"{out}/{n}-merged.raw", "wb").write(merged)
    lstatus, lfilters, _, _, unchanged, live, _ = run(png, mode, procedure, props, True)
    open(f"{out}/{n}-live.raw", "wb").write(live)
    report.write(f"case {n} {status} {len(filters)} {made} {ret} {lstatus} "
                 f"{int(any(f.startswith('gpu-histogram:') for f in lfilters))} "
                 f"{int(unchanged)} {has_live}\n")
    report.flush()
report.close()


def selection(png, ellipse):
    """Writes sel-before.raw, sel-mask.raw (the selection, floats) and
    sel-bounds (its bounds x1 y1 x2 y2, the layer's width and height); with the module, sel-<op>-<live|merged>.raw: the module's
    filter appended to the layer under the ellipse and merged, or merged
    at once; and sel-<op>-crop.raw: the procedure on a copy cropped to
    the selection's bounds, nothing selected."""
    module = Gegl.has_operation("gpu-histogram:equalize")
    for op, procedure in (("equalize", "plug-in-gpu-histogram-equalize"),
                          ("clahe", "plug-in-gpu-histogram-clahe")):
        for how in ("live", "merged") if module else ():
            img, layer = load(png)
            select_ellipse(img, ellipse)
            _, _, x1, y1, x2, y2 = Gimp.Selection.bounds(img)
            open(f"{out}/sel-bounds", "w").write(
                f"{x1} {y1} {x2} {y2} {layer.get_width()} {layer.get_height()}\n")
            rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
            open(f"{out}/sel-mask.raw", "wb").write(bytes(img.get_selection().get_buffer().get(
                rect, 1.0, "Y float", Gegl.AbyssPolicy.NONE)))
            open(f"{out}/sel-before.raw", "wb").write(pixels(layer))
            flt = Gimp.DrawableFilter.new(layer, "gpu-histogram:" + op, op)
            flt.update()
            if how == "live":
                layer.append_filter(flt)
                layer.merge_filters()
            else:
                layer.merge_filter(flt)
            open(f"{out}/sel-{op}-{how}.raw", "wb").write(pixels(layer))
            img.delete()
        img, layer = load(png)
        select_ellipse(img, ellipse)
        _, _, x1, y1, x2, y2 = Gimp.Selection.bounds(img)
        Gimp.Selection.none(img)
        img.crop(x2 - x1, y2 - y1, x1, y1)
        proc = Gimp.get_pdb().lookup_procedure(procedure)
        args = proc.create_config()
        args.set_property("run-mode", Gimp.RunMode.NONINTERACTIVE)
        args.set_property("image", img)
        args.set_core_object_array("drawables", [layer])
        proc.run(args)
        open(f"{out}/sel-{op}-crop.raw", "wb").write(pixels(layer))
        img.delete()


if os.environ.get("GH_LIVE_SELECTION"):
    selection(*os.environ["GH_LIVE_SELECTION"].split())
