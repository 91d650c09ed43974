#!/usr/bin/python3
"""The plug-in's memory does not grow with the image (GIMP 2.10 or 3): its
pixels stream in strips, so the peak resident memory of the plug-in process
itself (not GIMP's) on a 12000x12000 RGBA layer stays within 128 MiB of its
peak on a 200x200 one, for plug-in-gpu-histogram and for an apply (equalize).
The layer alone is 576 MB as 8-bit RGBA and 2.3 GB as floats: a plug-in that
loads it whole fails.

Measured from outside, with no help from the plug-in: a wrapper takes the
plug-in's place in the profile, runs it as its child and records the peak
resident set the kernel kept for that child (wait4's ru_maxrss), which no
polling can miss.  GIMP runs as a new user's would (no BABL_LUT set).

Usage: plugin_memory.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import time

from plugin_gimp import GimpSession, Tally, parse_args, require_gimp

MARGIN_KB = 128 * 1024
SIZES = (200, 12000)

# Run by GIMP in the plug-in's place; also where GIMP 3 runs in its
# environment's root (which has python3 and sees /tmp at the same path).
WRAPPER = r'''#!/usr/bin/python3
import os, resource, signal, sys
real, log, fsize = {real!r}, {log!r}, {fsize!r}
pid = os.fork()
if pid == 0:
    # What Python ignores, the plug-in gets as GIMP would give it.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    if fsize is not None:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    os.execv(real, sys.argv)
_, status, usage = os.wait4(pid, 0)
with open(log, "a") as f:
    f.write("%d %d %s\n" % (usage.ru_maxrss, status, " ".join(sys.argv[1:])))
sys.exit(0 if status == 0 else 1)
'''


def wrap_plugin(session, fsize=None):
    """Puts a wrapper in the plug-in's place in `session`'s profile (before
    GIMP first queries it); returns the log it appends a line to for each
    plug-in process: 'PEAK-KiB WAIT-STATUS ARGUMENTS' ('-run' among the
    arguments for a call).  fsize: a file size limit (bytes) for the
    plug-in: a write beyond it is cut short and the plug-in killed
    (SIGXFSZ) in the middle of that write."""
    plug = session.profile / "plug-ins" / "gpu-histogram" / "gpu-histogram"
    real = session.dir / "gpu-histogram-real"
    log = session.dir / "plugin-processes.log"
    plug.rename(real)
    plug.write_text(WRAPPER.format(real=str(real), log=str(log), fsize=fsize))
    plug.chmod(0o755)
    return log


def calls(log):
    """[(peak KiB, wait status)] of the plug-in's calls in `log`, in order."""
    if not log.exists():
        return []
    lines = [line.split(" ", 2) for line in log.read_text().splitlines()]
    return [(int(k), int(st)) for k, st, args in lines if "-run" in args.split()]


def main():
    host, plugin = parse_args("plugin_memory.py")
    require_gimp(host, modules=())  # skipped only without GIMP
    t = Tally()
    with GimpSession(plugin, host) as s:
        s.env.pop("BABL_LUT", None)  # as a new user runs GIMP
        log = wrap_plugin(s)
        peaks = {}
        for n in SIZES:
            # A plain fill: the content does not matter, only the size, and
            # it costs GIMP a fraction of a second at 144 megapixels.
            setup = (f"(let* ((img (car (gimp-image-new {n} {n} RGB)))"
                     f" (drw (gh-new-layer img {n} {n} RGBA-IMAGE \"big\")))"
                     " (gimp-image-insert-layer img drw 0 0)"
                     " (gimp-drawable-fill drw FILL-WHITE)")
            if log.exists():
                log.unlink()
            start = time.time()
            o = s.run({"calls": setup + " (gh-stats \"big\" img drw)"
                       " (gh-equalize RUN-NONINTERACTIVE img drw 0) (gh-say \"DONE\"))"})["calls"]
            seconds = time.time() - start
            hist = o.fields("HIST")
            counted = sum(float(v) for v in hist[0][1:257]) if hist else -1
            runs = calls(log)
            t.check(f"{n}x{n}: histogram and equalize ran, every pixel counted",
                    o.ok and o.fields("DONE") and counted == n * n
                    and len(runs) == 2 and all(st == 0 for _, st in runs),
                    f"counted {counted}, calls {runs}\n{o.text}")
            peaks[n] = runs + [(0, 0)] * (2 - len(runs))
            print(f"{host.label} {n}x{n}: plug-in peak RSS histogram "
                  f"{peaks[n][0][0] / 1024:.0f} MiB, equalize {peaks[n][1][0] / 1024:.0f} MiB"
                  f" ({seconds:.1f} s with GIMP)")
        small, big = peaks[SIZES[0]], peaks[SIZES[-1]]
        for k, what in enumerate(("histogram", "equalize")):
            t.check(f"{what}: the plug-in's peak at {SIZES[-1]}x{SIZES[-1]} is within "
                    f"{MARGIN_KB // 1024} MiB of its peak at {SIZES[0]}x{SIZES[0]}",
                    small[k][0] > 0 and big[k][0] < small[k][0] + MARGIN_KB,
                    f"{big[k][0] / 1024:.0f} MiB against {small[k][0] / 1024:.0f} MiB")
    t.finish()


if __name__ == "__main__":
    main()
