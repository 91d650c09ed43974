# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared by the plugin_*.py tests: a private gimp-console of either GIMP
host (its own profile, HOME and folders) with the built plug-in installed,
Script-Fu functions for both hosts, and the pass/fail tally.

    host, plugin_exe = parse_args("plugin_stats.py")   # [--host gimp2|gimp3] PLUGIN
    require_gimp(host)        # gimp2: exits 77 (skipped) without gimp-console-2.10;
                              # gimp3: fails (exit 1) when GIMP 3 cannot be run
    with GimpConsole(plugin_exe, host) as s:
        out = s.run({"tag": "(gh-say \"X\" 1)"})   # {tag: Chunk}
    out["tag"].messages   -> ["X|1"]      (gimp-message lines, "script-fu-Warning: " removed)
    out["tag"].ok         -> False when the command ended in an execution error
    out["tag"].text       -> everything GIMP printed for that command (errors included)

The tests' Script-Fu is written once, for both hosts, in terms of the gh-*
functions below (GIMP 2.10 and GIMP 3 name, order and return their PDB
arguments differently); only those functions differ by host.  Both hosts run
Script-Fu in its v2 dialect (every PDB call returns a list), which GIMP 3
keeps by default in batch mode.

Each command is one -b: an error ends only that command. GIMP prints one
"batch command ..." line after each, which is how the output is split.
GIMP 3 stops the whole batch at the first failing command ("Stopping at
failing batch command [i]"): the run then goes on in a new gimp-console
with the commands after it, so a command must not rely on images another
command opened (none does: files carry results from one to the next).

GIMP 3 runs natively (gimp-console-3 on the PATH: GIMP 3.0 and 3.2 both
have it) or, where the system has none (Debian 12), inside a root of
scripts/gimp3-env.sh: the variable GH_GIMP3_ENV names that script, and
GH_GIMP3 (3.0 or 3.2) which root, as the script reads it (tests/meson.build
sets both).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Both hosts.  Loaded from the profile's scripts/ folder: definitions in one
# -b do not reach the next, but scripts/ files are loaded before every batch
# command.
COMMON_SCRIPT_FU = r"""
(define (gh-join xs)
  (cond ((null? xs) "")
        ((null? (cdr xs)) (car xs))
        (else (string-append (car xs) "|" (gh-join (cdr xs))))))
(define (gh-str x)
  (cond ((string? x) x) ((number? x) (number->string x))
        ((symbol? x) (symbol->string x)) (else "?")))
(define (gh-say . parts) (gimp-message (gh-join (map gh-str parts))))
(define (gh-vec v) (gh-join (map number->string (vector->list v))))
(define (gh-select img sel)
  (gimp-context-set-antialias TRUE)
  (gimp-context-set-feather (if (eq? (car sel) 'ellipse) TRUE FALSE))
  (gimp-context-set-feather-radius 30 30)
  (cond ((eq? (car sel) 'rect)
         (apply gimp-image-select-rectangle img CHANNEL-OP-REPLACE (cdr sel)))
        ((eq? (car sel) 'ellipse)
         (apply gimp-image-select-ellipse img CHANNEL-OP-REPLACE (cdr sel)))))
(define (gh-stats tag img drw)
  (let ((r (gh-histogram RUN-NONINTERACTIVE img drw)))
    (gh-say "BACKEND" (car r))
    (gh-say "STATS" tag (gh-vec (cadr r)))
    (gh-say "HIST" tag (gh-vec (caddr r)))))
;; Runs (thunk); if it fails, says REFUSED with the error's text instead of
;; ending the command (Script-Fu's catch loses the text: *error-hook* gets it).
(define gh-error '())
(define (gh-guard thunk)
  (let* ((old *error-hook*)
         (r (begin (set! gh-error '())
                   (set! *error-hook* (lambda x (set! gh-error x) (apply old x)))
                   (catch 'gh-refused (thunk)))))
    (set! *error-hook* old)
    (if (eq? r 'gh-refused)
        (gh-say "REFUSED" (gh-join (map gh-str (filter-strings gh-error)))))))
(define (filter-strings xs)
  (cond ((null? xs) '())
        ((or (string? (car xs)) (number? (car xs)) (symbol? (car xs)))
         (cons (car xs) (filter-strings (cdr xs))))
        (else (filter-strings (cdr xs)))))
(define (gh-gimp-stats tag drw channels)
  (for-each
    (lambda (ch)
      (gh-say "GIMP" tag ch (gh-join (map gh-str (gh-gimp-histogram drw ch 0 1)))))
    channels))
"""

GIMP2_SCRIPT_FU = r"""
(define (gh-active img) (car (gimp-image-get-active-drawable img)))
(define (gh-load file)
  (let ((img (car (gimp-file-load RUN-NONINTERACTIVE file file))))
    (list img (gh-active img))))
(define (gh-save img drw file) (gimp-file-save RUN-NONINTERACTIVE img drw file file))
(define (gh-save-selection img file)
  (file-pgm-save RUN-NONINTERACTIVE img (car (gimp-selection-save img)) file file 1))
(define (gh-new-layer img w h type name)
  (car (gimp-layer-new img w h type name 100 LAYER-MODE-NORMAL)))
(define (gh-layer-copy drw) (car (gimp-layer-copy drw TRUE)))
(define (gh-group img) (car (gimp-layer-group-new img)))
(define (gh-text-layer img text) (car (gimp-text-layer-new img text "Sans-serif" 24 0)))
(define (gh-channel-new img w h name) (car (gimp-channel-new img w h name 50 '(0 0 0))))
;; GIMP 2.10's numbers as they are (0..255 once no call has enabled the
;; precision state: plugin_precision.py).
(define (gh-gimp-histogram drw ch start end) (gimp-drawable-histogram drw ch start end))
;; The plug-in: (backend stats histogram) as in GIMP 3 (no lengths).
(define (gh-histogram rm img drw)
  (let ((r (plug-in-gpu-histogram rm img drw)))
    (list (car r) (caddr r) (car (cddddr r)))))
(define (gh-equalize rm img drw mode) (plug-in-gpu-histogram-equalize rm img drw mode))
(define (gh-equalize-too-few img drw) (plug-in-gpu-histogram-equalize RUN-NONINTERACTIVE img drw))
(define (gh-binarize rm img drw channel threshold)
  (car (plug-in-gpu-histogram-binarize rm img drw channel threshold)))
(define (gh-export rm img drw file) (plug-in-gpu-histogram-export rm img drw file))
(define (gh-batch rm pattern operation output-dir stats-csv)
  (plug-in-gpu-histogram-batch rm pattern operation output-dir stats-csv))
;; One row of pixels as gimp-drawable-get-pixel gives them (the bytes of
;; the layer's own format once the precision state is on), every step-th
;; from x0 up to x1.
(define (gh-row tag drw y x0 x1 step)
  (let loop ((x x0) (acc '()))
    (if (>= x x1)
        (gh-say "ROW" tag y (apply string-append (reverse acc)))
        (loop (+ x step)
              (cons (apply string-append
                           (map (lambda (b) (string-append (number->string b) " "))
                                (vector->list (cadr (gimp-drawable-get-pixel drw x y)))))
                    acc)))))
"""

GIMP3_SCRIPT_FU = r"""
(define (gh-active img) (vector-ref (car (gimp-image-get-selected-drawables img)) 0))
(define (gh-load file)
  (let ((img (car (gimp-file-load RUN-NONINTERACTIVE file))))
    (list img (gh-active img))))
(define (gh-save img drw file) (gimp-file-save RUN-NONINTERACTIVE img file -1))
;; GIMP 3 exports images, not channels: the saved selection is copied into
;; an image of its own (with nothing selected, so all of it).
(define (gh-save-selection img file)
  (let ((ch (car (gimp-selection-save img))))
    (gimp-selection-none img)
    (gimp-edit-copy (vector ch))
    (let ((new (car (gimp-edit-paste-as-new-image))))
      (gimp-image-select-item img CHANNEL-OP-REPLACE ch)
      (file-pgm-export #:run-mode RUN-NONINTERACTIVE #:image new #:file file)
      (gimp-image-delete new))))
(define (gh-new-layer img w h type name)
  (car (gimp-layer-new img name w h type 100 LAYER-MODE-NORMAL)))
(define (gh-layer-copy drw)
  (let ((copy (car (gimp-layer-copy drw))))
    (gimp-layer-add-alpha copy)
    copy))
(define (gh-group img) (car (gimp-group-layer-new img "group")))
(define (gh-text-layer img text)
  (car (gimp-text-layer-new img text (car (gimp-font-get-by-name "Sans-serif")) 24 UNIT-PIXEL)))
(define (gh-channel-new img w h name) (car (gimp-channel-new img name w h 50 '(0 0 0))))
;; GIMP 3's PDB always works at the image's precision: above 8 bits mean,
;; std-dev and median come on 0..1; on 0..255 here as GIMP 2.10's.
(define (gh-gimp-histogram drw ch start end)
  (let ((r (gimp-drawable-histogram drw ch start end))
        (p (car (gimp-image-get-precision (car (gimp-item-get-image drw))))))
    (if (memv p (list PRECISION-U8-LINEAR PRECISION-U8-NON-LINEAR PRECISION-U8-PERCEPTUAL))
        r
        (list (* 255 (car r)) (* 255 (cadr r))
              (if (< (caddr r) 0) (caddr r) (* 255 (caddr r)))
              (cadddr r) (car (cddddr r)) (cadr (cddddr r))))))
(define (gh-histogram rm img drw)
  (plug-in-gpu-histogram #:run-mode rm #:image img #:drawables (vector drw)))
(define (gh-equalize rm img drw mode)
  (plug-in-gpu-histogram-equalize #:run-mode rm #:image img #:drawables (vector drw)
                                  #:mode mode))
;; Named arguments left out take their defaults: the ordered form is the
;; one that can lack one.
(define (gh-equalize-too-few img drw)
  (plug-in-gpu-histogram-equalize RUN-NONINTERACTIVE img))
(define (gh-binarize rm img drw channel threshold)
  (car (plug-in-gpu-histogram-binarize #:run-mode rm #:image img #:drawables (vector drw)
                                       #:channel channel #:threshold threshold)))
(define (gh-export rm img drw file)
  (plug-in-gpu-histogram-export #:run-mode rm #:image img #:drawables (vector drw)
                                #:filename file))
(define (gh-batch rm pattern operation output-dir stats-csv)
  (plug-in-gpu-histogram-batch #:run-mode rm #:pattern pattern #:operation operation
                               #:output-dir output-dir #:stats-csv stats-csv))
;; One row of pixels in the layer's own format (GIMP 3's gimp-drawable-get-
;; pixel gives a colour, not bytes: Python-Fu reads the buffer).
(define (gh-row tag drw y x0 x1 step)
  (python-fu-eval #:run-mode RUN-NONINTERACTIVE #:script (string-append
    "from gi.repository import Gimp, Gegl\n"
    "d = Gimp.Drawable.get_by_id(" (number->string drw) ")\n"
    "x0, x1, y, step = " (number->string x0) ", " (number->string x1) ", "
    (number->string y) ", " (number->string step) "\n"
    "data = d.get_buffer().get(Gegl.Rectangle.new(x0, y, x1 - x0, 1), 1.0, None,"
    " Gegl.AbyssPolicy.NONE)\n"
    "bpp = len(data) // (x1 - x0)\n"
    "Gimp.message('ROW|" tag "|%d|%s' % (y, ''.join(''.join('%d ' % b for b in"
    " data[i * bpp:(i + 1) * bpp]) for i in range(0, x1 - x0, step))))\n")))
"""


class Host:
    """What differs between GIMP 2.10 and GIMP 3 for the tests."""

    def __init__(self, name):
        if name not in ("gimp2", "gimp3"):
            raise SystemExit(f"unknown host {name!r}: gimp2 or gimp3")
        self.name = name
        self.gimp3 = name == "gimp3"
        # Which GIMP 3 where tests/meson.build says (GH_GIMP3, as
        # scripts/gimp3-env.sh reads it); its fixtures are its own.
        self.v32 = self.gimp3 and os.environ.get("GH_GIMP3") == "3.2"
        self.label = ("GIMP 3.2" if self.v32 else "GIMP 3") if self.gimp3 else "GIMP 2.10"
        self.console = "gimp-console-3" if self.gimp3 else "gimp-console-2.10"
        self.profile_var = "GIMP3_DIRECTORY" if self.gimp3 else "GIMP2_DIRECTORY"
        self.script_fu = COMMON_SCRIPT_FU + (GIMP3_SCRIPT_FU if self.gimp3 else GIMP2_SCRIPT_FU)
        # The numbers each GIMP gave (tests/fixtures/capture_gimp.sh HOST).
        self.fixtures = ROOT / "tests" / "fixtures" / (
            ("gimp32" if self.v32 else "gimp3") if self.gimp3 else "gimp")
        # GIMP 2.10 bins the luminance of the stored (perceptual) samples,
        # GIMP 3 that of the linear-light ones (gimp3.md section 7).
        self.luminance = "linear" if self.gimp3 else "perceptual"
        # What a calling error (an argument out of range) prints.
        self.calling = (("Invalid value for argument", "out of range", "calling error",
                         "Calling error for procedure", "failed on invalid input arguments")
                        if self.gimp3 else ("failed on invalid input arguments",))
        # GIMP 3 runs inside a root of scripts/gimp3-env.sh when this names it.
        self.env_script = os.environ.get("GH_GIMP3_ENV") if self.gimp3 else None

    def precision(self, p):
        """A GIMP 2.10 precision name (U16-GAMMA) in this host's PDB."""
        return p.replace("GAMMA", "NON-LINEAR") if self.gimp3 else p

    def argv(self, commands, interpreter="plug-in-script-fu-eval"):
        """The command line that runs `commands` (a list of -b texts) and quits."""
        if self.gimp3:
            args = [self.console, "-i", f"--batch-interpreter={interpreter}"]
            for c in commands:
                args += ["-b", c]
            args.append("--quit")
            if self.env_script:
                args = ["bash", self.env_script, "run"] + args
            return args
        args = [self.console, "-i", "-d", "-f"]
        for c in commands:
            args += ["-b", c]
        return args + ["-b", "(gimp-quit 0)"]

    def calling_error(self, text):
        return any(c in text for c in self.calling)


# Lines of gimp-message (Script-Fu) and Gimp.message (Python-Fu) in batch mode.
MESSAGE = re.compile(r"^(?:script-fu|python-eval\.py)-Warning: (.*)$")


class Chunk:
    def __init__(self, text, ok):
        self.text, self.ok = text, ok
        self.messages = [m.group(1) for m in map(MESSAGE.match, text.splitlines()) if m]

    def fields(self, head):
        """The |-separated fields of each message starting with head|."""
        return [m.split("|")[1:] for m in self.messages if m.split("|")[0] == head]


def parse_args(prog, extra=()):
    """[--host gimp2|gimp3] PLUGIN [extra positional...] -> (Host, plugin, *extra)."""
    ap = argparse.ArgumentParser(prog=prog)
    ap.add_argument("--host", default="gimp2", choices=["gimp2", "gimp3"])
    ap.add_argument("plugin")
    for name in extra:
        ap.add_argument(name, nargs="?")
    a = ap.parse_args()
    return (Host(a.host), a.plugin) + tuple(getattr(a, n) for n in extra)


def gimp3_problem(host):
    """Why GIMP 3 cannot be run here, or None."""
    if host.env_script:
        p = subprocess.run(["bash", host.env_script, "root"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        root = Path(p.stdout.strip())
        if p.returncode != 0 or not (root / ".gpu-histogram-ready").exists():
            v = os.environ.get("GH_GIMP3")
            return (f"the {host.label} environment {root} is not ready "
                    f"({'GH_GIMP3=' + v + ' ' if v else ''}bash {host.env_script} setup)")
        if os.geteuid() != 0:
            return f"the {host.label} environment needs root (chroot)"
        return None
    if not shutil.which(host.console):
        return f"{host.console} not found"
    return None


def require_gimp(host=None, modules=("cv2", "numpy")):
    """Exits unless `host` can run, and the Python modules the test uses
    (OpenCV and numpy unless told) can be imported."""
    host = host or Host("gimp2")
    if host.gimp3:
        if os.environ.get("GH_GIMP3_UNAVAILABLE"):
            # meson found no GIMP 3 and no environment that could be made.
            print(f"{os.environ['GH_GIMP3_UNAVAILABLE']}: skipping")
            sys.exit(77)
        # Otherwise GIMP 3 is expected: not running it is a failure.
        why = gimp3_problem(host)
        if why:
            print(f"FAIL {why}")
            print("0 passed, 1 failed")
            sys.exit(1)
    elif not shutil.which(host.console):
        print(f"{host.console} not found: skipping")
        sys.exit(77)
    try:
        for m in modules:
            __import__(m)
    except ImportError as e:
        print(f"cannot import {'/'.join(modules)} ({e}): skipping")
        sys.exit(77)


class GimpConsole:
    """A private gimp-console: a fresh profile (the plug-in and the gh-*
    Script-Fu installed), HOME and cache in a folder of its own, removed on
    exit; run() starts gimp-console in it."""

    def __init__(self, plugin_exe, host=None, scripts=(), last_values=None):
        """host: a Host (GIMP 2.10 when None); scripts: extra Script-Fu files for
        the profile's scripts/ folder; last_values (GIMP 3): {procedure:
        "(name value)..."}, the settings RUN-WITH-LAST-VALS finds, as an
        interactive run would have left them (GIMP 3 remembers nothing of a
        NONINTERACTIVE run)."""
        self.plugin_exe = Path(plugin_exe).resolve()
        self.host = host or Host("gimp2")
        self.scripts = [Path(p) for p in scripts]
        self.last_values = last_values or {}

    def __enter__(self):
        # Under /tmp: the GIMP 3 environment sees /tmp at the same path.
        self.dir = Path(tempfile.mkdtemp(prefix="gh-plugin-test-", dir="/tmp"))
        self.env = dict(os.environ)
        for var, sub in (("HOME", "home"), ("XDG_CONFIG_HOME", "config"),
                         ("XDG_CACHE_HOME", "cache")):
            (self.dir / sub).mkdir()
            self.env[var] = str(self.dir / sub)
        # GIMP makes its user folder only when it is missing: first start creates it.
        self.profile = self.dir / "profile"
        self.env[self.host.profile_var] = str(self.profile)
        if self.host.gimp3:
            # babl's LUT set-up costs every plug-in process about 1 s (gimp3.md 6).
            self.env["BABL_LUT"] = "0"
        self.env.pop("DISPLAY", None)
        self._gimp(["(gimp-quit 0)"] if not self.host.gimp3 else ["(+ 1 1)"])
        plug_dir = self.profile / "plug-ins" / "gpu-histogram"
        plug_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.plugin_exe, plug_dir / "gpu-histogram")
        (self.profile / "scripts").mkdir(exist_ok=True)
        (self.profile / "scripts" / "gh-test-functions.scm").write_text(self.host.script_fu)
        for script in self.scripts:
            shutil.copy2(script, self.profile / "scripts" / script.name)
        self.tmp = self.dir / "files"
        self.tmp.mkdir()
        if self.last_values:
            # "{tmp}" in a value: this console's folder for files.
            settings = self.profile / "plug-in-settings"
            settings.mkdir(exist_ok=True)
            for proc, text in self.last_values.items():
                (settings / f"GimpProcedureConfigRun-{proc}.last").write_text(
                    text.replace("{tmp}", str(self.tmp)) + "\n")
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)

    def _gimp(self, commands, timeout=400, interpreter="plug-in-script-fu-eval"):
        p = subprocess.run(self.host.argv(commands, interpreter), env=self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout)
        return p.stdout  # the exit status means nothing (gimp-headless.md)

    def python(self, code, timeout=400):
        """GIMP 3 only: runs Python-Fu code (one batch command); returns a Chunk."""
        log = self._gimp([code], timeout, interpreter="python-fu-eval")
        return self._split(log, 1)[0][0]

    def run(self, commands):
        """Runs {tag: scheme} in one gimp-console run (GIMP 3: one more after
        each failing command); returns {tag: Chunk}."""
        tags = list(commands)
        chunks = []
        while len(chunks) < len(tags):
            rest = [commands[t] for t in tags[len(chunks):]]
            log = self._gimp(rest)
            got, stopped = self._split(log, len(rest))
            chunks += got
            if not stopped:
                if len(chunks) != len(tags):
                    print(f"GIMP printed {len(chunks)} results for {len(tags)} commands; "
                          f"log:\n{log}")
                break
        missing = Chunk("GIMP printed nothing for this command", False)
        return {t: chunks[k] if k < len(chunks) else missing for k, t in enumerate(tags)}

    @staticmethod
    def _split(log, n):
        """The log's chunks, and whether GIMP 3 stopped at a failing one."""
        chunks, current, lines = [], [], log.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith("batch command executed successfully"):
                chunks.append(Chunk("\n".join(current), True))
                current = []
            elif line.startswith("batch command experienced an execution error"):
                # the next line is Script-Fu's "Error: ..." for this command
                if i + 1 < len(lines):
                    current.append(lines[i + 1])
                    i += 1
                chunks.append(Chunk("\n".join(current), False))
                current = []
            elif line.startswith("Stopping at failing batch command"):
                return chunks, len(chunks) < n
            else:
                current.append(line)
            i += 1
        return chunks, False


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, what, ok, detail=""):
        print(f"ok   {what}" if ok else f"FAIL {what}: {detail}")
        if ok:
            self.passed += 1
        else:
            self.failed += 1

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed or not self.passed else 0)


def scm_str(path):
    return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'


class Snippets:
    """Script-Fu for the apply tests: a body run on a file loaded as img/drw with a
    selection (gh-select's name), output paths in the test's folder, and a call that must
    fail with the image saved before and after it (the call says REFUSED|why)."""

    def __init__(self, tmp):
        self.tmp = tmp

    def on(self, file, body, sel="(none)", prep=""):
        return (f"(let* ((l (gh-load {scm_str(file)})) (img (car l)) (drw (cadr l)))"
                f" (gh-select img '{sel}) {prep} {body})")

    def out(self, name):
        return scm_str(self.tmp / name)

    def guarded(self, call, name):
        return (f"(gh-save img drw {self.out(name + '-before.png')})"
                f"(gh-guard (lambda () {call}))"
                f"(gh-save img drw {self.out(name + '-after.png')})")
