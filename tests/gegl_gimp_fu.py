# SPDX-License-Identifier: GPL-3.0-or-later
# Python-Fu, run by tests/gegl_module.py in gimp-console-3 (-b - < this):
# the module's operations as GIMP 3 sees them, appended to a layer as
# live filters and merged, and the plug-in's procedure of the same
# operation on a fresh copy with the same parameters.  Reads
# GH_GEGL_CASES (lines of tab-separated fields: image file, precision (""
# or a Gimp.Precision name), selection ("" or a rectangle "x,y,w,h"),
# operation, procedure, output PNM ("" for none), tolerance ("" exact,
# else "PIXELS,LIMIT": at most PIXELS pixels with a sample more than LIMIT
# apart, in the sample's units), PROP=VALUE... (mode and channel by their
# values' nicks, as GIMP hands a GEGL enum to scripts)); writes
# GH_GEGL_REPORT: "ops <names>", "menu <operation> <path>" and per case
# "case <n> <live filter listed> <pixels unchanged while live> <changed
# once merged> <merged equals the procedure's, within the tolerance>
# <"exact", or how far apart: pixels beyond LIMIT (0 without a tolerance)
# and the largest difference>".  Converted layers and those above 8 bits
# are compared as floats.
import os
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, Gio, GObject
import array


def pixels(layer, sample):
    fmt = (("Y'" if layer.is_gray() else "R'G'B'") + ("A" if layer.has_alpha() else "")
           + " " + sample)
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    return layer.get_buffer().get(rect, 1.0, fmt, Gegl.AbyssPolicy.NONE)


def write_pnm(path, layer, data):
    w, h = layer.get_width(), layer.get_height()
    depth = 1 if layer.is_gray() else 3
    with open(path, "wb") as f:
        f.write(f"P{5 if depth == 1 else 6}\n{w} {h}\n255\n".encode() + bytes(data))


def apart(a, b, sample, components, limit):
    """Pixels of pixel data `a` and `b` (u8 or float samples) with a sample
    more than `limit` apart, and the largest difference."""
    a, b = (array.array("B" if sample == "u8" else "f", x) for x in (a, b))
    far, most = set(), 0
    for i, (x, y) in enumerate(zip(a, b)):
        most = max(most, abs(x - y))
        if abs(x - y) > limit:
            far.add(i // components)
    return len(far), most


def load(png, precision, selection):
    img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(png))
    if precision:
        img.convert_precision(getattr(Gimp.Precision, precision))
    if selection:
        x, y, w, h = map(int, selection.split(","))
        img.select_rectangle(Gimp.ChannelOps.REPLACE, x, y, w, h)
    return img, img.get_layers()[0]


def number(config, name):
    """A property of a filter's config as the procedures take it: mode's and
    channel's nick (GIMP's choice for a GEGL enum) as its number."""
    spec, value = config.find_property(name), config.get_property(name)
    if spec.value_type == GObject.TYPE_STRING:
        return Gimp.param_spec_choice_get_choice(spec).get_id(value)
    return value


# The operations GEGL lists here, in the plug-in process (the module's
# folder is GIMP's).
Gegl.init(None)
report = open(os.environ["GH_GEGL_REPORT"], "w")
ops = sorted(o for o in Gegl.list_operations() if o.startswith("gpu-histogram:"))
report.write("ops " + " ".join(ops) + "\n")
for op in ops:
    report.write(f"menu {op} {Gegl.Operation.get_key(op, 'gimp:menu-path')}\n")
pdb = Gimp.get_pdb()
for n, line in enumerate(open(os.environ["GH_GEGL_CASES"])):
    png, precision, selection, op, procedure, out, tolerance, *props = \
        line.rstrip("\n").split("\t")
    img, layer = load(png, precision, selection)
    # Converted, or above 8 bits: as floats, nothing rounded.
    sample = ("u8" if not precision and "_U8_" in img.get_precision().value_name
              else "float")
    before = pixels(layer, sample)
    flt = Gimp.DrawableFilter.new(layer, op, "gpu-histogram")
    config = flt.get_config()
    for p in props:
        name, value = p.split("=")
        kind = config.find_property(name).value_type
        config.set_property(name, value if kind == GObject.TYPE_STRING
                            else float(value) if kind == GObject.TYPE_DOUBLE else int(value))
    flt.update()
    layer.append_filter(flt)
    listed = any(f.get_operation_name() == op for f in layer.get_filters())
    live = pixels(layer, sample)
    layer.merge_filters()
    merged = pixels(layer, sample)
    if out:
        write_pnm(out, layer, merged)
    # The procedure, every parameter as the filter had it.
    img2, layer2 = load(png, precision, selection)
    proc = pdb.lookup_procedure(procedure)
    args = proc.create_config()
    args.set_property("image", img2)
    args.set_core_object_array("drawables", [layer2])
    for spec in config.list_properties():
        if args.find_property(spec.name) and spec.name not in ("image", "drawables"):
            value = number(config, spec.name)
            # The procedure refuses a gray layer's luminance; the operation
            # reads the gray level, as the procedure's value.
            if spec.name == "channel" and layer2.is_gray() and value == 5:
                value = 0
            args.set_property(spec.name, value)
    if args.find_property("apply"):
        args.set_property("apply", 1)
    status = proc.run(args).index(0)
    by_procedure = pixels(layer2, sample) if status == Gimp.PDBStatusType.SUCCESS else None
    same, detail = merged == by_procedure, "exact"
    if not same and by_procedure is not None:
        most, limit = (tolerance or "0,0").split(",")
        far, largest = apart(merged, by_procedure, sample,
                             (1 if layer.is_gray() else 3) + layer.has_alpha(),
                             float(limit))
        same = bool(tolerance) and far <= int(most)
        detail = f"{far}px>{limit},max{largest:.3g}"
    report.write(f"case {n} {int(listed)} {int(live == before)} {int(merged != before)} "
                 f"{int(same)} {detail}\n")
    img.delete()
    img2.delete()


def match_cases(path):
    """gpu-histogram:match with a second image's layer on its aux input
    (gimp_drawable_filter_set_aux_input), appended and merged (or merged
    directly where GIMP refuses it appended), against
    plug-in-gpu-histogram-match with that layer as its reference.  Lines
    of GH_GEGL_MATCH_CASES: PNG, reference PNG, the reference's precision
    ("" or a Gimp.Precision name), mode (its nick), output PNM ("" for
    none), tolerance (as GH_GEGL_CASES'); reported as "match <n> <listed>
    <unchanged while appended> <changed once merged> <merged equals the
    procedure's, within the tolerance>"."""
    for n, line in enumerate(open(path)):
        png, ref_png, ref_precision, mode, out, tolerance = \
            line.rstrip("\n").split("\t")
        img, layer = load(png, "", "")
        ref, ref_layer = load(ref_png, ref_precision, "")
        before = pixels(layer, "u8")
        flt = Gimp.DrawableFilter.new(layer, "gpu-histogram:match", "gpu-histogram")
        flt.get_config().set_property("mode", mode)
        mode = number(flt.get_config(), "mode")
        flt.set_aux_input("aux", ref_layer)
        flt.update()
        # GIMP 3.0.4 and 3.2.6 refuse it live ("effects with an 'aux' pad
        # cannot be applied non-destructively"): then merged directly.
        layer.append_filter(flt)
        listed = any(f.get_operation_name() == "gpu-histogram:match"
                     for f in layer.get_filters())
        live = pixels(layer, "u8")
        if listed:
            layer.merge_filters()
        else:
            layer.merge_filter(flt)
        merged = pixels(layer, "u8")
        if out:
            write_pnm(out, layer, merged)
        img2, layer2 = load(png, "", "")
        proc = pdb.lookup_procedure("plug-in-gpu-histogram-match")
        args = proc.create_config()
        args.set_property("image", img2)
        args.set_core_object_array("drawables", [layer2])
        args.set_property("reference", ref_layer)
        args.set_property("mode", mode)
        status = proc.run(args).index(0)
        by_procedure = (pixels(layer2, "u8") if status == Gimp.PDBStatusType.SUCCESS
                        else None)
        same = merged == by_procedure
        if not same and by_procedure is not None and tolerance:
            most, limit = tolerance.split(",")
            far, _ = apart(merged, by_procedure, "u8",
                           (1 if layer.is_gray() else 3) + layer.has_alpha(),
                           float(limit))
            same = far <= int(most)
        report.write(f"match {n} {int(listed)} {int(live == before)} "
                     f"{int(merged != before)} {int(same)}\n")
        for i in (img, ref, img2):
            i.delete()


if os.environ.get("GH_GEGL_MATCH_CASES"):
    match_cases(os.environ["GH_GEGL_MATCH_CASES"])
report.close()
