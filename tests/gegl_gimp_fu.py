# Python-Fu, run by tests/gegl_module.py in gimp-console-3 (-b - < this):
# the module's operations as GIMP 3 sees them, appended to a layer as
# live filters and merged.  Reads GH_GEGL_CASES (lines: PNG, operation,
# output PNM, PROP=VALUE... separated by tabs); writes GH_GEGL_REPORT:
# "ops <names>", "menu <label> <path>" and per case "case <output> <live
# filter listed> <pixels unchanged while live>".
import os
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, Gio, GObject


def pixels(layer):
    fmt = ("Y'" if layer.is_gray() else "R'G'B'") + ("A" if layer.has_alpha() else "") + " u8"
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    return layer.get_buffer().get(rect, 1.0, fmt, Gegl.AbyssPolicy.NONE)


def write_pnm(path, layer, data):
    w, h = layer.get_width(), layer.get_height()
    gray, alpha = layer.is_gray(), layer.has_alpha()
    depth = (1 if gray else 3) + (1 if alpha else 0)
    if alpha:
        kind = ("GRAYSCALE" if gray else "RGB") + "_ALPHA"
        head = f"P7\nWIDTH {w}\nHEIGHT {h}\nDEPTH {depth}\nMAXVAL 255\nTUPLTYPE {kind}\nENDHDR\n"
    else:
        head = f"P{5 if gray else 6}\n{w} {h}\n255\n"
    with open(path, "wb") as f:
        f.write(head.encode() + bytes(data))


# The plug-in process has no GEGL operations until GEGL starts in it: the
# filter's config needs the module's enum types (mode, channel).
Gegl.init(None)
report = open(os.environ["GH_GEGL_REPORT"], "w")
ops = sorted(o for o in Gegl.list_operations() if o.startswith("gpu-histogram:"))
report.write("ops " + " ".join(ops) + "\n")
for op in ops:
    report.write(f"menu {op} {Gegl.Operation.get_key(op, 'gimp:menu-path')}\n")
for line in open(os.environ["GH_GEGL_CASES"]):
    png, op, out, *props = line.rstrip("\n").split("\t")
    img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(png))
    layer = img.get_layers()[0]
    before = pixels(layer)
    flt = Gimp.DrawableFilter.new(layer, op, "gpu-histogram")
    config = flt.get_config()
    for p in props:
        name, value = p.split("=")
        # Enums come as their numbers: the module's enum types are known
        # to GObject here, not to GI.
        spec = config.find_property(name)
        value = float(value) if spec.value_type == GObject.TYPE_DOUBLE else int(value)
        config.set_property(name, value)
    flt.update()
    layer.append_filter(flt)
    listed = any(f.get_operation_name() == op for f in layer.get_filters())
    live = pixels(layer)
    layer.merge_filters()
    after = pixels(layer)
    write_pnm(out, layer, after)
    report.write(f"case {out} {int(listed)} {int(live == before)}\n")
    img.delete()
report.close()
