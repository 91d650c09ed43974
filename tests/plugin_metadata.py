#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""plug-in-gpu-histogram-batch keeps a photo's metadata as GIMP's own export
does (GIMP 2.10, 3.0 and 3.2).

Photos in JPEG, PNG, TIFF and WebP, tagged by exiftool (EXIF: make, model,
date, GPS; XMP: title, creator; IPTC: keywords), are equalized by the batch in
gimp-console; the same files are loaded and saved by GIMP itself in the same
GIMP process: gimp-file-load, then in GIMP 2.10 gimp-file-save (its scripted
export, which keeps what its Export keeps but in WebP: scripted, GIMP 2.10's
WebP saver writes no metadata), in GIMP 3 the format's export
procedure with the metadata arguments as its Export starts them (the
preferences: Gimp.export_exif () ...), for GIMP 3's gimp-file-save leaves
every tag out.  Read back by exiftool, each batch result holds the same of
those tags as GIMP's own export of that file, at least those GIMP 3's
gimp-file-save keeps, and (the check that these tags are kept at all) GIMP's
export of the JPEG keeps every one.

Usage: plugin_metadata.py [--host gimp2|gimp3] PATH-TO-gpu-histogram
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped
(no GIMP, cv2, numpy or exiftool).
"""
import json
import shutil
import subprocess
import sys

from plugin_gimp import GimpConsole, Tally, parse_args, require_gimp, scm_str

FORMATS = ("jpg", "png", "tif", "webp")
TAGS = {
    "EXIF:Make": "Phone Maker", "EXIF:Model": "Model 7",
    "EXIF:DateTimeOriginal": "2024:05:06 07:08:09",
    "EXIF:GPSLatitude": 48.8583, "EXIF:GPSLongitude": 2.2945,
    "XMP:Title": "Tower at dusk", "XMP:Creator": "A. Photographer",
    "IPTC:Keywords": "tower",
}
GPS_REFS = {"EXIF:GPSLatitudeRef": "N", "EXIF:GPSLongitudeRef": "E"}


def exiftool(*args):
    p = subprocess.run(["exiftool", *map(str, args)], capture_output=True, text=True,
                       timeout=300)
    if p.returncode:
        raise RuntimeError(f"exiftool: {p.stderr.strip()}")
    return p.stdout


def kept(path):
    """The tags of TAGS that `path` holds, as exiftool reads them (-n)."""
    if not path.exists():
        return None
    d = json.loads(exiftool("-j", "-n", "-G0", path))[0]
    return {k: d[k] for k in TAGS if k in d}


EXPORTERS = {"jpg": "file-jpeg-export", "png": "file-png-export",
             "tif": "file-tiff-export", "webp": "file-webp-export"}


def export_gimp3(files):
    """Python-Fu: each (input, output, export procedure) loaded and exported
    as GIMP 3's Export does by default: the metadata arguments the procedure
    takes as the preferences set them."""
    return ("from gi.repository import Gimp, Gio\n"
            "prefs = {'include-exif': Gimp.export_exif, 'include-xmp': Gimp.export_xmp,"
            " 'include-iptc': Gimp.export_iptc, 'include-comment': Gimp.export_comment,"
            " 'include-thumbnail': Gimp.export_thumbnail,"
            " 'include-color-profile': Gimp.export_color_profile}\n"
            f"for src, dst, name in {[(str(a), str(b), c) for a, b, c in files]!r}:\n"
            "    image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(src))\n"
            "    proc = Gimp.get_pdb().lookup_procedure(name)\n"
            "    config = proc.create_config()\n"
            "    config.set_property('run-mode', Gimp.RunMode.NONINTERACTIVE)\n"
            "    config.set_property('image', image)\n"
            "    config.set_property('file', Gio.File.new_for_path(dst))\n"
            "    for arg, pref in prefs.items():\n"
            "        if proc.find_argument(arg):\n"
            "            config.set_property(arg, pref())\n"
            "    proc.run(config)\n")


def main():
    host, plugin = parse_args("plugin_metadata.py")
    require_gimp(host)
    if not shutil.which("exiftool"):
        print("no exiftool (Debian: libimage-exiftool-perl): skipping")
        sys.exit(77)
    import cv2
    import numpy as np
    t = Tally()
    with GimpConsole(plugin, host) as s:
        src, out, ref = s.tmp / "in", s.tmp / "out", s.tmp / "ref"
        for d in (src, out, ref):
            d.mkdir()
        rng = np.random.default_rng(7)
        pixels = cv2.GaussianBlur(rng.integers(0, 256, (48, 64, 3), dtype=np.uint8), (9, 9), 3)
        for ext in FORMATS:
            p = src / f"photo_{ext}.{ext}"
            cv2.imwrite(str(p), pixels)
            # No IPTC in WebP (no place for it; exiftool refuses).
            tags = {k: v for k, v in {**TAGS, **GPS_REFS}.items()
                    if not (k.startswith("IPTC:") and ext == "webp")}
            exiftool("-q", "-q", "-overwrite_original",
                     *[f"-{k}={v}" for k, v in tags.items()], p)
        commands = {"batch": (f"(gh-batch RUN-NONINTERACTIVE {scm_str(src / 'photo_*')} 1"
                              f" {scm_str(out)} {scm_str(s.tmp / 'stats.csv')})")}
        for ext in FORMATS:
            f = src / f"photo_{ext}.{ext}"
            commands[f"save {ext}"] = (f"(let* ((l (gh-load {scm_str(f)})) (img (car l))"
                                       f" (drw (cadr l))) (gh-save img drw {scm_str(ref / f.name)}))")
        ran = s.run(commands)
        for tag, chunk in ran.items():
            t.check(f"{tag}: ran", chunk.ok, chunk.text)
        export = ref
        if host.gimp3:
            export = s.tmp / "export"
            export.mkdir()
            chunk = s.python(export_gimp3([(src / f"photo_{ext}.{ext}", export / f"photo_{ext}.{ext}",
                                            EXPORTERS[ext]) for ext in FORMATS]))
            t.check("GIMP 3's export procedures: ran", chunk.ok, chunk.text)
        for ext in FORMATS:
            name = f"photo_{ext}.{ext}"
            have, want, saved = kept(src / name), kept(export / name), kept(ref / name)
            got = kept(out / name)
            t.check(f"{name}: the input holds its tags",
                    have is not None and len(have) == len(TAGS) - (ext == "webp"), repr(have))
            t.check(f"{name}: the batch keeps what {host.label}'s own export keeps "
                    f"({', '.join(k.split(':')[1] for k in want or {})})",
                    got is not None and got == want, f"batch {got}, GIMP {want}")
            t.check(f"{name}: the batch keeps at least what gimp-file-save keeps",
                    got is not None and saved is not None
                    and all(got.get(k) == v for k, v in saved.items()),
                    f"batch {got}, gimp-file-save {saved}")
        want = kept(export / "photo_jpg.jpg") or {}
        t.check(f"{host.label}'s own export of the JPEG keeps every tag",
                want == {k: v for k, v in TAGS.items()}, repr(want))
    t.finish()


if __name__ == "__main__":
    main()
