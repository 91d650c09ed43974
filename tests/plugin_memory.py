#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The plug-in's memory does not grow with the image (GIMP 2.10 or 3): its
pixels stream in strips, so the peak resident memory of the plug-in process
itself (not GIMP's) on a 12000x12000 RGBA layer stays within 128 MiB of its
peak on a 200x200 one, for plug-in-gpu-histogram and for an apply (equalize).
The layer alone is 576 MB as 8-bit RGBA and 2.3 GB as floats: a plug-in that
loads it whole fails.  An 8-bit layer of up to 128 MiB is kept between
equalize's two passes (core_region_keep): on a 5000x5000 RGBA one (100 MB)
the peak stays within 128 + 128 MiB of the small one's.

Measured from outside, with no help from the plug-in: a wrapper takes the
plug-in's place in the profile and becomes the plug-in (exec, the same
process for GIMP) after starting a watcher that reads the process's VmHWM,
the kernel's high-water mark of its resident set, every 5 ms until it is
gone (so only growth in its last 5 ms could be missed).  Scripts' calls
are served by the resident process (plugin/gimp2/resident.h), which GIMP
starts with each gimp-console and kills when it quits: a run's peak is
that of every plug-in process it ran.  GIMP runs as a new user's would
(no BABL_LUT set).

Usage: plugin_memory.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped.
"""
import time

from plugin_gimp import GimpConsole, Tally, parse_args, require_gimp

MARGIN_KB = 128 * 1024
KEEP_KB = 128 * 1024  # KEEP_BYTES, plugin/core/region_parts.h
SIZES = (200, 5000, 12000)

# Run by GIMP in the plug-in's place; also where GIMP 3 runs in its
# environment's root (which has python3 and sees /tmp at the same path).
WRAPPER = r'''#!/usr/bin/python3
import os, re, resource, signal, sys, time
real, log, fsize = {real!r}, {log!r}, {fsize!r}
plug = os.getpid()
if os.fork() == 0:
    # The watcher: a grandchild (nobody's to reap), holding none of the
    # pipes to GIMP, so the plug-in's end is GIMP's to see.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, 65536)
    if os.fork():
        os._exit(0)
    peak = 0
    while True:
        try:
            with open("/proc/%d/status" % plug) as f:
                m = re.search(r"VmHWM:\s*(\d+)", f.read())
        except OSError:
            m = None
        if not m:
            break
        peak = max(peak, int(m.group(1)))
        time.sleep(0.005)
    with open(log, "a") as f:
        f.write("%d %s\n" % (peak, " ".join(sys.argv[1:])))
    os._exit(0)
os.wait()
# What Python ignores, the plug-in gets as GIMP would give it.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
if fsize is not None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
os.execv(real, sys.argv)
'''


def wrap_plugin(console, fsize=None):
    """Puts a wrapper in the plug-in's place in `console`'s profile (before
    GIMP first queries it); returns the log it appends a line to for each
    plug-in process once it is gone: 'PEAK-KiB ARGUMENTS' ('-run' among the
    arguments of a process that ran calls).  fsize: a file size limit
    (bytes) for the plug-in: a write beyond it is cut short and the plug-in
    killed (SIGXFSZ) in the middle of that write."""
    plug = console.profile / "plug-ins" / "gpu-histogram" / "gpu-histogram"
    real = console.dir / "gpu-histogram-real"
    log = console.dir / "plugin-processes.log"
    plug.rename(real)
    plug.write_text(WRAPPER.format(real=str(real), log=str(log), fsize=fsize))
    plug.chmod(0o755)
    return log


def peaks(log, settle=0.5, wait=10):
    """The peak (KiB) of each plug-in process in `log` that ran calls, once
    the log has settled (a watcher writes up to 5 ms after its process
    ends, which GIMP's quit does not wait for)."""
    last, since, deadline = None, time.time(), time.time() + wait
    while time.time() < deadline:
        text = log.read_text() if log.exists() else ""
        if text != last:
            last, since = text, time.time()
        elif text and time.time() - since >= settle:
            break
        time.sleep(0.05)
    lines = [line.split(" ", 1) for line in (last or "").splitlines()]
    return [int(k) for k, args in lines if "-run" in args.split()]


def main():
    host, plugin = parse_args("plugin_memory.py")
    require_gimp(host, modules=())  # skipped only without GIMP
    t = Tally()
    with GimpConsole(plugin, host) as s:
        s.env.pop("BABL_LUT", None)  # as a new user runs GIMP
        log = wrap_plugin(s)
        peak = {}
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
            runs = peaks(log)
            t.check(f"{n}x{n}: histogram and equalize ran, every pixel counted",
                    o.ok and o.fields("DONE") and counted == n * n and runs,
                    f"counted {counted}, processes {runs}\n{o.text}")
            peak[n] = max(runs, default=0)
            print(f"{host.label} {n}x{n}: peak RSS of the plug-in's processes "
                  f"{' '.join(f'{k / 1024:.0f}' for k in runs)} MiB ({seconds:.1f} s with GIMP)")
        small = peak[SIZES[0]]
        for n, margin in ((5000, MARGIN_KB + KEEP_KB), (12000, MARGIN_KB)):
            t.check(f"histogram and equalize: the plug-in's peak at {n}x{n} is "
                    f"within {margin // 1024} MiB of its peak at {SIZES[0]}x{SIZES[0]}",
                    small > 0 and peak[n] < small + margin,
                    f"{peak[n] / 1024:.0f} MiB against {small / 1024:.0f} MiB")
    t.finish()


if __name__ == "__main__":
    main()
