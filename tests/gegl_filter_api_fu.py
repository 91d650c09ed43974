# SPDX-License-Identifier: GPL-3.0-or-later
# Python-Fu, run by tests/gegl_filter_api.py in gimp-console-3 (-b - <
# this): the module's operations made through GIMP's filter API as
# scripts make them, Gegl.init never called here (the module's types are
# unknown to this process, as to any script's), in Python-Fu and in
# Script-Fu (tests/gegl_filter_api.scm, through plug-in-script-fu-eval),
# each merged result against the plug-in's procedure with the same
# parameters.  Reads GH_FILTER_API_CASES (JSON: the image, the reference,
# the .scm file and per operation its procedure, its properties' values
# and the one changed after the filter is appended, or null); writes
# GH_FILTER_API_REPORT, one JSON object a line:
#   {"spec": operation, "props": [what the filter's config declares],
#    "types": whether the module's enum types are known here}
#   {"case": operation, "by": "python" or "script-fu", "listed": live
#    filter listed, "unchanged": pixels unchanged while live (both null
#    when merged at once), "config": the live filter's values as GIMP
#    holds them (Script-Fu), "values": those merged, "changed": pixels
#    changed once merged, "same": merged equals the procedure's}
# and {"done": true}.  Begins and ends on stderr, so that the caller
# tells GIMP's start and exit from what the scripts printed.
import json
import os
import sys
import gi
gi.require_version("Gimp", "3.0")
gi.require_version("Gegl", "0.4")
from gi.repository import Gimp, Gegl, Gio, GObject

sys.stderr.write("gegl_filter_api_fu: begin\n")
sys.stderr.flush()
CASES = json.load(open(os.environ["GH_FILTER_API_CASES"]))
report = open(os.environ["GH_FILTER_API_REPORT"], "w")
pdb = Gimp.get_pdb()


def emit(**fields):
    report.write(json.dumps(fields) + "\n")
    report.flush()


def load(png):
    img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(png))
    return img, img.get_layers()[0]


# Each case on a copy of the image, loaded once.
original, _ = load(CASES["image"])


def fresh():
    img = original.duplicate()
    return img, img.get_layers()[0]


def pixels(layer):
    rect = Gegl.Rectangle.new(0, 0, layer.get_width(), layer.get_height())
    fmt = ("Y'" if layer.is_gray() else "R'G'B'") + ("A" if layer.has_alpha() else "") + " u8"
    return layer.get_buffer().get(rect, 1.0, fmt, Gegl.AbyssPolicy.NONE)


def spec(p):
    """What a script (and GIMP's dialog) learns of a property."""
    d = dict(name=p.name, type=GObject.type_name(p.value_type), label=p.get_nick(),
             blurb=p.get_blurb(), default=p.get_default_value())
    if p.value_type == GObject.TYPE_STRING:
        choice = Gimp.param_spec_choice_get_choice(p)
        d["values"] = [[nick, choice.get_id(nick), choice.get_label(nick)]
                       for nick in choice.list_nicks()]
    else:
        d["range"] = [p.minimum, p.maximum]
    return d


def scheme(value):
    return json.dumps(value) if isinstance(value, str) else repr(value)


def script_fu(code):
    proc = pdb.lookup_procedure("plug-in-script-fu-eval")
    args = proc.create_config()
    args.set_property("run-mode", Gimp.RunMode.NONINTERACTIVE)
    args.set_property("script", f'(load {scheme(CASES["scm"])}) {code}')
    result = proc.run(args)
    if result.index(0) != Gimp.PDBStatusType.SUCCESS:
        raise RuntimeError(f"Script-Fu {code}: {result.index(0)}")


# Each value's number for the procedures (mode's and channel's nicks are
# the choice's ids), by operation.
numbers = {}


def module_types():
    try:
        return bool(GObject.type_from_name("GhGeglMode"))
    except RuntimeError:
        return False


img, layer = fresh()
for op in CASES["ops"]:
    flt = Gimp.DrawableFilter.new(layer, op, op)
    props = [spec(p) for p in flt.get_config().list_properties()]
    emit(spec=op, props=props, types=module_types())
    numbers[op] = {p["name"]: {nick: n for nick, n, _ in p.get("values", [])} for p in props}
    flt.delete()
img.delete()

procedure_results = {}


def by_procedure(op, values, ref_layer):
    """The procedure's pixels for `values` (cached: Python-Fu's and
    Script-Fu's cases often share them)."""
    args_key = json.dumps([op, values], sort_keys=True)
    if args_key not in procedure_results:
        img, layer = fresh()
        proc = pdb.lookup_procedure(CASES["ops"][op]["procedure"])
        args = proc.create_config()
        args.set_property("image", img)
        args.set_core_object_array("drawables", [layer])
        for name, value in values.items():
            args.set_property(name, numbers[op][name].get(value, value))
        if ref_layer:
            args.set_property("reference", ref_layer)
        if args.find_property("apply"):
            args.set_property("apply", 1)
        ok = proc.run(args).index(0) == Gimp.PDBStatusType.SUCCESS
        procedure_results[args_key] = pixels(layer) if ok else None
        img.delete()
    return procedure_results[args_key]


ref, ref_layer = load(CASES["reference"])
for op, case in CASES["ops"].items():
    aux = case["aux"]
    for by in ("python", "script-fu"):
        img, layer = fresh()
        before = pixels(layer)
        values = dict(case["values"])
        listed = unchanged = config = None
        if by == "python":
            flt = Gimp.DrawableFilter.new(layer, op, op)
            cfg = flt.get_config()
            for name, value in values.items():
                cfg.set_property(name, value)
            if aux:
                flt.set_aux_input("aux", ref_layer)
                flt.update()
                layer.merge_filter(flt)
            else:
                flt.update()
                layer.append_filter(flt)
                listed = [f.get_operation_name() for f in layer.get_filters()] == [op]
                unchanged = pixels(layer) == before
                # Edited while live: the merge renders the new value.
                name, value = case["change"]
                cfg.set_property(name, value)
                flt.update()
                values[name] = value
                layer.merge_filters()
        else:
            props = " ".join(f"{scheme(n)} {scheme(v)}" for n, v in values.items())
            if aux:
                script_fu(f'(gh-filter-merge {layer.get_id()} {scheme(op)} (list {props}) '
                          f'{ref_layer.get_id()})')
            else:
                script_fu(f'(gh-filter-append {layer.get_id()} {scheme(op)} (list {props}))')
                filters = layer.get_filters()
                listed = [f.get_operation_name() for f in filters] == [op]
                unchanged = pixels(layer) == before
                # Script-Fu has no call that hands a live filter's edited
                # config to GIMP (libgimp's update): the values as set.
                if filters:
                    cfg = filters[0].get_config()
                    config = {name: cfg.get_property(name) for name in values}
                script_fu(f"(gimp-drawable-merge-filters {layer.get_id()})")
        merged = pixels(layer)
        emit(case=op, by=by, listed=listed, unchanged=unchanged, config=config,
             values=values, changed=merged != before,
             same=merged == by_procedure(op, values, ref_layer if aux else None))
        img.delete()
ref.delete()
original.delete()
emit(done=True)
report.close()
sys.stderr.write("gegl_filter_api_fu: end\n")
sys.stderr.flush()
