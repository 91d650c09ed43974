# SPDX-License-Identifier: GPL-3.0-or-later
"""What a user meets before the pixels: the version, the licence, the
manual page and the AppStream metadata.

  meta.py version VERSION CLI [PLUGIN...]  meson's project version is the
      one debian/changelog, NEWS, the metainfo's newest release,
      `CLI --version`, the CLI's "generator:" line and each plug-in's
      procedures' date string give
  meta.py man PAGE CLI     the page renders without a warning and names
      every option of `CLI --help`
  meta.py appstream FILE   appstreamcli validate --pedantic: nothing said but
      the upper case GIMP's id forces on an addon's (and, before AppStream
      1.0, <developer> unknown)
  meta.py reuse            reuse lint in the source tree

Each reports itself skipped (77) only where its tool is not installed
(the quick start installs them all).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from checks import Checks

ROOT = Path(__file__).resolve().parent.parent
METAINFO = ROOT / "plugin" / "org.gimp.GIMP.gpu_histogram.metainfo.xml"


def run(*args, **kw):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          timeout=120, **kw)


def need(tool):
    if shutil.which(tool) is None:
        print(f"SKIP: {tool} is not installed")
        sys.exit(77)


def options(cli):
    """The options `cli --help` lists, in its order."""
    names = re.findall(r"^ {2}(--[a-z][a-z0-9-]*)", run(cli, "--help").stdout, re.M)
    return list(dict.fromkeys(names))


def check_version(checks, version, cli, plugins):
    top = (ROOT / "debian" / "changelog").read_text().splitlines()[0]
    m = re.match(r"gpu-histogram \(([^)-]+)(-[^)]*)?\) ", top)
    checks.report("debian/changelog's newest entry is the upstream version",
                  None if m and m.group(1) == version else f"{top!r}, meson {version}")
    news = (ROOT / "NEWS").read_text().splitlines()[0]
    checks.report("NEWS starts with the version",
                  None if news.startswith(f"gpu-histogram {version} ") else repr(news))
    m = re.search(r'<release version="([^"]+)"', METAINFO.read_text())
    checks.report("the metainfo's newest release is the version",
                  None if m and m.group(1) == version else repr(m and m.group(0)))
    p = run(cli, "--version")
    checks.report("--version prints the version and exits 0",
                  None if p.returncode == 0 and p.stdout == f"gpu-histogram-cli {version}\n"
                  and not p.stderr else f"exit {p.returncode}: {p.stdout!r} {p.stderr!r}")
    checks.report("--help lists --version", None if "--version" in options(cli) else "not listed")
    with tempfile.TemporaryDirectory() as tmp:
        pgm = Path(tmp) / "gray.pgm"
        pgm.write_bytes(b"P5\n4 2\n255\n" + bytes(range(0, 256, 32)))
        p = run(cli, pgm)
    first = (p.stdout.splitlines() or [""])[0]
    checks.report("the statistics start with a generator line naming the version",
                  None if p.returncode == 0 and first == f"generator: gpu-histogram-cli {version}"
                  else f"exit {p.returncode}: {first!r}")
    # GIMP keeps no version of a procedure: the date string carries it.
    for plugin in plugins:
        data = Path(plugin).read_bytes()
        checks.report(f"{plugin}: the procedures' date string names the version",
                      None if f", version {version}\0".encode() in data else "not found")


def check_man(checks, page, cli):
    need("man")
    # As lintian reads a manual page (its groff warnings on stderr).
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80", MANROFFSEQ="")
    p = run("man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", page, env=env)
    checks.report("the page renders without a warning",
                  None if p.returncode == 0 and not p.stderr.strip()
                  else f"exit {p.returncode}: {p.stderr.strip()[-2000:]}")
    text = run("man", "-l", page, env=dict(env, MAN_KEEP_FORMATTING="")).stdout
    text = re.sub(r".\x08", "", text)
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "EXAMPLES", "SEE ALSO"):
        checks.report(f"the {section} section", None if f"\n{section}\n" in text else "missing")
    # Words broken at a line's end come back joined: compare without them.
    flat = re.sub(r"\s+", " ", text.replace("\u2010\n", "").replace("-\n", "-"))
    missing = [o for o in options(cli) if not re.search(re.escape(o) + r"\b", flat)]
    checks.report(f"every option of --help is in the page ({len(options(cli))})",
                  None if options(cli) and not missing else f"missing {missing}")


def check_appstream(checks, path):
    need("appstreamcli")
    p = run("appstreamcli", "validate", "--no-net", "--pedantic", "--no-color", path)
    # GIMP's id is org.gimp.GIMP, so an addon's id has its capitals; and
    # <developer> (AppStream 1.0's, for <developer_name>) is news to 0.16.
    said = [line for line in p.stdout.splitlines() if re.match(r"[EWIP]: ", line)
            and "cid-contains-uppercase-letter" not in line
            and not line.endswith("unknown-tag developer")]
    checks.report("appstreamcli validate --pedantic: valid, nothing said",
                  None if p.returncode == 0 and not said
                  else f"exit {p.returncode}: {p.stdout.strip()} {p.stderr.strip()}")


def check_reuse(checks):
    need("reuse")
    p = run("reuse", "--root", ROOT, "lint")
    checks.report("reuse lint: every file has its copyright and licence",
                  None if p.returncode == 0 else (p.stdout + p.stderr)[-3000:])


def main():
    args = sys.argv[1:]
    checks = Checks()
    if args[:1] == ["version"] and len(args) >= 3:
        check_version(checks, args[1], args[2], args[3:])
    elif args[:1] == ["man"] and len(args) == 3:
        check_man(checks, args[1], args[2])
    elif args[:1] == ["appstream"] and len(args) == 2:
        check_appstream(checks, args[1])
    elif args == ["reuse"]:
        check_reuse(checks)
    else:
        raise SystemExit(__doc__)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed or not checks.passed else 0


if __name__ == "__main__":
    sys.exit(main())
