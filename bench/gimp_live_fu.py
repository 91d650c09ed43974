# Python-Fu, run by bench/gimp_live.py in gimp-console-3 (-b - < this):
# one 6400 x 4000 RGB layer (testimages/coffee.png scaled up, undo off),
# GH_BENCH_CALLS timed calls of GIMP's gimp-drawable-equalize and of
# plug-in-gpu-histogram-equalize (each channel, merged), after one untimed
# call of each; writes "<who> <first s> <median s> <min s>" lines to
# GH_BENCH_REPORT.
import os
import statistics
import time
import gi
gi.require_version("Gimp", "3.0")
from gi.repository import Gimp, Gio

pdb = Gimp.get_pdb()
img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                     Gio.File.new_for_path(os.environ["GH_BENCH_IMAGE"]))
img.undo_disable()
img.scale(6400, 4000)
layer = img.get_layers()[0]
calls = int(os.environ["GH_BENCH_CALLS"])


def gimp_equalize():
    layer.equalize(False)


def plugin_equalize():
    proc = pdb.lookup_procedure("plug-in-gpu-histogram-equalize")
    config = proc.create_config()
    config.set_property("image", img)
    config.set_core_object_array("drawables", [layer])
    config.set_property("mode", 0)
    status = proc.run(config).index(0)
    assert status == Gimp.PDBStatusType.SUCCESS, status


report = open(os.environ["GH_BENCH_REPORT"], "w")
for who, call in (("gimp", gimp_equalize), ("plugin", plugin_equalize)):
    times = []
    for k in range(calls + 1):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    report.write(f"{who} {times[0]:.4f} {statistics.median(times[1:]):.4f} "
                 f"{min(times[1:]):.4f}\n")
    report.flush()
report.close()
img.delete()
