# SPDX-License-Identifier: GPL-3.0-or-later
# Python-Fu, run by tests/gegl_module.py after gegl_gimp_fu.py in the same
# gimp-console-3 run (its load, pixels, pdb and GH_GEGL_REPORT): a live
# filter is live.  Appends "live <check> <0|1>" lines to the report:
#   edited  a live threshold whose level is changed after it was appended
#           merges as the procedure at the new level, not the old;
#   painted a rectangle filled white under a live equalize: the merge
#           equalizes the new pixels (the procedure on a copy filled
#           alike), not the pixels the filter was appended to.
live_report = open(os.environ["GH_GEGL_REPORT"], "a")
CAMERA = os.environ["GH_GEGL_LIVE_IMAGE"]


def by_procedure(name, fill=False, **props):
    img, layer = load(CAMERA, "", "")
    if fill:
        img.select_rectangle(Gimp.ChannelOps.REPLACE, 0, 0, 200, 100)
        layer.edit_fill(Gimp.FillType.WHITE)
        Gimp.Selection.none(img)
    proc = pdb.lookup_procedure(name)
    args = proc.create_config()
    args.set_property("image", img)
    args.set_core_object_array("drawables", [layer])
    for k, v in props.items():
        args.set_property(k, v)
    proc.run(args)
    result = pixels(layer, "u8")
    img.delete()
    return result


img, layer = load(CAMERA, "", "")
flt = Gimp.DrawableFilter.new(layer, "gpu-histogram:threshold", "threshold")
flt.get_config().set_property("threshold", 60)
flt.update()
layer.append_filter(flt)
flt.get_config().set_property("threshold", 160)
flt.update()
layer.merge_filters()
merged = pixels(layer, "u8")
img.delete()
live_report.write("live edited %d\n" % int(
    merged == by_procedure("plug-in-gpu-histogram-binarize", channel=0, threshold=160)
    != by_procedure("plug-in-gpu-histogram-binarize", channel=0, threshold=60)))

img, layer = load(CAMERA, "", "")
flt = Gimp.DrawableFilter.new(layer, "gpu-histogram:equalize", "equalize")
flt.update()
layer.append_filter(flt)
img.select_rectangle(Gimp.ChannelOps.REPLACE, 0, 0, 200, 100)
layer.edit_fill(Gimp.FillType.WHITE)
Gimp.Selection.none(img)
layer.merge_filters()
merged = pixels(layer, "u8")
img.delete()
live_report.write("live painted %d\n" % int(
    merged == by_procedure("plug-in-gpu-histogram-equalize", fill=True, mode=0)
    != by_procedure("plug-in-gpu-histogram-equalize", mode=0)))
live_report.close()
