"""Shared by the plugin_*.py tests: a private gimp-console-2.10 session with the
built plug-in installed, Script-Fu helpers, and the pass/fail tally.

    gimp = require_gimp()                 # exits 77 (skipped) without gimp-console or cv2
    with GimpSession(plugin_exe) as s:
        out = s.run({"tag": "(gh-say \"X\" 1)"})   # {tag: Chunk}
    out["tag"].messages   -> ["X|1"]      (gimp-message lines, "script-fu-Warning: " removed)
    out["tag"].ok         -> False when the command ended in an execution error
    out["tag"].text       -> everything GIMP printed for that command (errors included)

Each command is one -b: an error ends only that command. GIMP prints one
"batch command ..." line after each, which is how the output is split.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GIMP = "gimp-console-2.10"

# Loaded from the profile's scripts/ folder: definitions in one -b do not
# reach the next, but scripts/ files are loaded before every batch command.
HELPERS = r"""
(define (gh-join xs)
  (cond ((null? xs) "")
        ((null? (cdr xs)) (car xs))
        (else (string-append (car xs) "|" (gh-join (cdr xs))))))
(define (gh-str x) (if (string? x) x (number->string x)))
(define (gh-say . parts) (gimp-message (gh-join (map gh-str parts))))
(define (gh-vec v) (gh-join (map number->string (vector->list v))))
(define (gh-load file)
  (let ((img (car (gimp-file-load RUN-NONINTERACTIVE file file))))
    (list img (car (gimp-image-get-active-drawable img)))))
(define (gh-save img drw file) (gimp-file-save RUN-NONINTERACTIVE img drw file file))
(define (gh-select img sel)
  (gimp-context-set-antialias TRUE)
  (gimp-context-set-feather (if (eq? (car sel) 'ellipse) TRUE FALSE))
  (gimp-context-set-feather-radius 30 30)
  (cond ((eq? (car sel) 'rect)
         (apply gimp-image-select-rectangle img CHANNEL-OP-REPLACE (cdr sel)))
        ((eq? (car sel) 'ellipse)
         (apply gimp-image-select-ellipse img CHANNEL-OP-REPLACE (cdr sel)))))
(define (gh-save-selection img file)
  (file-pgm-save RUN-NONINTERACTIVE img (car (gimp-selection-save img)) file file 1))
(define (gh-stats tag img drw)
  (let ((r (plug-in-gpu-histogram RUN-NONINTERACTIVE img drw)))
    (gh-say "BACKEND" (car r))
    (gh-say "STATS" tag (gh-vec (caddr r)))
    (gh-say "HIST" tag (gh-vec (car (cddddr r))))))
;; One row of pixels as gimp-drawable-get-pixel gives them (the bytes of
;; the layer's own format), every step-th from x0 up to x1.
(define (gh-row tag drw y x0 x1 step)
  (let loop ((x x0) (acc '()))
    (if (>= x x1)
        (gh-say "ROW" tag y (apply string-append (reverse acc)))
        (loop (+ x step)
              (cons (apply string-append
                           (map (lambda (b) (string-append (number->string b) " "))
                                (vector->list (cadr (gimp-drawable-get-pixel drw x y)))))
                    acc)))))
(define (gh-gimp-stats tag drw channels)
  (for-each
    (lambda (ch)
      (gh-say "GIMP" tag ch (gh-join (map gh-str (gimp-drawable-histogram drw ch 0 1)))))
    channels))
"""


class Chunk:
    def __init__(self, text, ok):
        self.text, self.ok = text, ok
        self.messages = [line[len("script-fu-Warning: "):] for line in text.splitlines()
                         if line.startswith("script-fu-Warning: ")]

    def fields(self, head):
        """The |-separated fields of each message starting with head|."""
        return [m.split("|")[1:] for m in self.messages if m.split("|")[0] == head]


def require_gimp():
    if not shutil.which(GIMP):
        print(f"{GIMP} not found: skipping")
        sys.exit(77)
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        print(f"cannot import cv2/numpy ({e}): skipping")
        sys.exit(77)


class GimpSession:
    def __init__(self, plugin_exe, scripts=()):
        """scripts: extra Script-Fu files for the profile's scripts/ folder."""
        self.plugin_exe = Path(plugin_exe).resolve()
        self.scripts = [Path(p) for p in scripts]

    def __enter__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="gh-plugin-test-"))
        self.env = dict(os.environ)
        for var, sub in (("HOME", "home"), ("XDG_CONFIG_HOME", "config"),
                         ("XDG_CACHE_HOME", "cache")):
            (self.dir / sub).mkdir()
            self.env[var] = str(self.dir / sub)
        # GIMP makes its user folder only when it is missing: first start creates it.
        self.env["GIMP2_DIRECTORY"] = str(self.dir / "gimp2")
        self.env.pop("DISPLAY", None)
        self._gimp(["(gimp-quit 0)"])
        plug_dir = self.dir / "gimp2" / "plug-ins" / "gpu-histogram"
        plug_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.plugin_exe, plug_dir / "gpu-histogram")
        (self.dir / "gimp2" / "scripts").mkdir(exist_ok=True)
        (self.dir / "gimp2" / "scripts" / "gh-test-helpers.scm").write_text(HELPERS)
        for script in self.scripts:
            shutil.copy2(script, self.dir / "gimp2" / "scripts" / script.name)
        self.tmp = self.dir / "files"
        self.tmp.mkdir()
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)

    def _gimp(self, commands, timeout=300):
        args = [GIMP, "-i", "-d", "-f"]
        for c in commands:
            args += ["-b", c]
        args += ["-b", "(gimp-quit 0)"]
        p = subprocess.run(args, env=self.env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=timeout)
        return p.stdout  # the exit status means nothing (gimp-headless.md)

    def run(self, commands):
        """Runs {tag: scheme} in one session; returns {tag: Chunk}."""
        tags = list(commands)
        log = self._gimp([commands[t] for t in tags])
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
            else:
                current.append(line)
            i += 1
        if len(chunks) != len(tags):
            print(f"GIMP printed {len(chunks)} results for {len(tags)} commands; log:\n{log}")
        missing = Chunk("GIMP printed nothing for this command", False)
        return {t: chunks[k] if k < len(chunks) else missing for k, t in enumerate(tags)}


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
