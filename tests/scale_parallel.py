#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""doc/scale.md's recipes, run as written: a folder of photos spread over
machines gives the same files as one run on one machine.

The blocks of doc/scale.md marked `<!-- test: scale NAME -->` run in bash
in a folder holding photos/*.jpg (JPEGs cut from testimages/), with this
machine's sizes put in (the Slurm array 0-2 of 1 CPU each, --wait; two
GPUs), against:
- an sshd of the test's own on 127.0.0.1 at a free port (host and user
  keys made here, its own known_hosts and ssh_config naming it host1 and
  host2: GNU parallel's PARALLEL_SSH), nothing else reached;
- a single-node Slurm of its own (munged, slurmctld, slurmd on this
  machine, private ports, key and folders; about a second to start);
- `gpu-histogram-cli` on the PATH a stand-in that records what each call
  was given (CUDA_VISIBLE_DEVICES, --threads) and runs the real one (on the
  CPU here), passed to the ssh hosts with parallel's --env PATH.
Checked, each against one local run of the CLI on the same photos:
1. transfer: every result back, byte for byte; every host took jobs.
2. transfer with one job killed (SIGKILL, once), then the same command
   with --resume-failed: the killed job's result missing after the first,
   nothing missing after the second, only that job run again.
3. shared: -X batches on three hosts, --workdir the folder.
4. slurm: the array's results; and scripts/slurm-array.sh's shares (its
   GH_SLURM_DRY_RUN listing) for 1..9 tasks over 0..23 files, from array
   index 0 and from 5: each file in exactly one share, in order, shares
   differing by at most one file.
5. gpus: slots 0 and 1 each used, each call with half the cores.

Usage: scale_parallel.py PATH-TO-gpu-histogram-cli
Ends with "N passed, N failed"; exit 0 all passed, 1 a failure, 77 skipped
(no GNU parallel, rsync, sshd, ssh-keygen, Slurm or munge; not root; a CLI
built without GEGL).
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checks import Checks

try:
    import cv2
    from readme_examples import blocks
except ImportError as e:  # the GPU host's Python has no OpenCV
    print(f"cannot import cv2 ({e}): skipping")
    sys.exit(77)

ROOT = Path(__file__).resolve().parent.parent
SLURM = ROOT / "scripts" / "slurm-array.sh"
HOSTS = ["host1", "host2", ":"]  # as doc/scale.md names them


def skip(why):
    print(f"{why}: skipping")
    sys.exit(77)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recipes():
    """{NAME: code} of doc/scale.md's blocks marked for this test."""
    return {name: code for where, host, name, code in blocks()
            if host == "scale" and where.startswith("doc/scale.md:") and code}


def photos(folder, n=12):
    """n photo-like JPEGs cut from testimages/ (distinct crops and sizes)."""
    folder.mkdir()
    sources = sorted((ROOT / "testimages").glob("*.png"))
    names = []
    for k in range(n):
        img = cv2.imread(str(sources[k % len(sources)]), cv2.IMREAD_UNCHANGED)
        h, w = img.shape[:2]
        crop = img[k * 7 % (h // 3):, k * 11 % (w // 3):]
        names.append(f"photo{k:02d}.jpg")
        cv2.imwrite(str(folder / names[-1]), crop, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return names


class Sshd:
    """A private sshd on 127.0.0.1 and an ssh_config naming it host1, host2."""

    def __init__(self, tmp):
        self.dir = tmp / "ssh"
        self.dir.mkdir(mode=0o700)
        d = self.dir
        for key in ("host", "user"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", d / key],
                           check=True)
        shutil.copy(d / "user.pub", d / "authorized_keys")
        self.port = free_port()
        (d / "sshd_config").write_text(
            f"Port {self.port}\nListenAddress 127.0.0.1\nHostKey {d / 'host'}\n"
            f"AuthorizedKeysFile {d / 'authorized_keys'}\nPidFile {d / 'sshd.pid'}\n"
            "PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n"
            "PermitRootLogin prohibit-password\nStrictModes no\nMaxStartups 64\n"
            "Subsystem sftp internal-sftp\n")
        hostkey = (d / "host.pub").read_text().split()[:2]
        (d / "known_hosts").write_text(f"[127.0.0.1]:{self.port} {' '.join(hostkey)}\n")
        (d / "ssh_config").write_text("".join(
            f"Host {name}\n  HostName 127.0.0.1\n  Port {self.port}\n"
            f"  IdentityFile {d / 'user'}\n  IdentitiesOnly yes\n  BatchMode yes\n"
            f"  UserKnownHostsFile {d / 'known_hosts'}\n  StrictHostKeyChecking yes\n"
            f"  HostKeyAlias [127.0.0.1]:{self.port}\n"
            for name in HOSTS if name != ":"))
        Path("/run/sshd").mkdir(exist_ok=True)  # its privilege separation folder
        self.log = d / "sshd.log"
        self.proc = subprocess.Popen(["/usr/sbin/sshd", "-D", "-f", d / "sshd_config",
                                      "-E", self.log])
        self.ssh = f"ssh -F {d / 'ssh_config'}"
        for _ in range(100):
            if subprocess.run(self.ssh.split() + ["host1", "true"],
                              capture_output=True).returncode == 0:
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the test's sshd did not answer: {self.log.read_text()[-500:]}")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


class Slurm:
    """munged, slurmctld and slurmd of the test's own: one node (this
    machine, 2 CPUs), one partition, everything under `tmp`."""

    def __init__(self, tmp):
        d = self.dir = tmp / "slurm"
        (d / "state").mkdir(parents=True)
        (d / "spool").mkdir()
        key = d / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        self.pids = [d / "munged.pid", d / "slurmctld.pid", d / "slurmd.pid"]
        subprocess.run(["munged", f"--key-file={key}", f"--socket={d / 'munge.sock'}",
                        f"--pid-file={self.pids[0]}", f"--log-file={d / 'munged.log'}",
                        f"--seed-file={d / 'munge.seed'}", "--force"], check=True)
        node = socket.gethostname()
        conf = d / "slurm.conf"
        conf.write_text(
            f"ClusterName=gh\nSlurmctldHost={node}\nSlurmUser=root\n"
            f"SlurmctldPort={free_port()}\nSlurmdPort={free_port()}\n"
            f"AuthType=auth/munge\nAuthInfo=socket={d / 'munge.sock'}\n"
            f"StateSaveLocation={d / 'state'}\nSlurmdSpoolDir={d / 'spool'}\n"
            f"SlurmctldPidFile={self.pids[1]}\nSlurmdPidFile={self.pids[2]}\n"
            f"SlurmctldLogFile={d / 'slurmctld.log'}\nSlurmdLogFile={d / 'slurmd.log'}\n"
            # No cgroups or accounting: nothing of the machine's is touched.
            "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
            "JobAcctGatherType=jobacct_gather/none\nSelectType=select/cons_tres\n"
            "SelectTypeParameters=CR_CPU\nReturnToService=2\nMpiDefault=none\n"
            f"NodeName={node} CPUs=2 State=UNKNOWN\n"
            f"PartitionName=main Nodes={node} Default=YES MaxTime=INFINITE State=UP\n")
        self.conf = conf
        for daemon in ("slurmctld", "slurmd"):
            subprocess.run([daemon, "-f", conf], env=dict(os.environ, SLURM_CONF=str(conf)),
                           check=True)
        for _ in range(120):
            p = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True,
                               env=dict(os.environ, SLURM_CONF=str(conf)))
            if "idle" in p.stdout:
                return
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"the test's Slurm node is not idle after 60 s: "
                           f"{(d / 'slurmctld.log').read_text()[-500:]}")

    def stop(self):
        for pid in reversed(self.pids):
            try:
                os.kill(int(pid.read_text()), 15)
            except (OSError, ValueError):
                pass


def same_files(ref, pairs):
    """None when every (file, reference name) pair holds the local run's
    bytes, else why."""
    missing = [str(f) for f, _ in pairs if not f.exists()]
    if missing:
        return f"missing {missing}"
    differ = [str(f) for f, n in pairs if f.read_bytes() != (ref / n).read_bytes()]
    return f"not the local run's bytes: {differ}" if differ else None


def joblog(path):
    """[(host, exit value, signal, command)] of a --joblog file."""
    rows = []
    for line in path.read_text().splitlines()[1:]:
        f = line.split("\t")
        rows.append((f[1], int(f[6]), int(f[7]), f[8]))
    return rows


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: scale_parallel.py PATH-TO-gpu-histogram-cli")
    cli = os.path.abspath(sys.argv[1])
    for tool in ("parallel", "rsync", "ssh-keygen", "ssh", "sbatch", "slurmctld", "slurmd",
                 "munged"):
        if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}"):
            skip(f"{tool} not found (Debian: parallel, rsync, openssh-client, slurm-wlm, "
                 "munge)")
    if not os.path.exists("/usr/sbin/sshd"):
        skip("no /usr/sbin/sshd (Debian: openssh-server)")
    if os.geteuid() != 0:
        skip("sshd of the test's own needs root here")
    checks = Checks()
    doc = recipes()
    checks.report("doc/scale.md has the four recipes",
                  None if sorted(doc) == ["gpus", "shared", "slurm", "transfer"]
                  else f"found {sorted(doc)}")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        names = photos(tmp / "photos")
        stems = [n[:-4] for n in names]
        ref = tmp / "ref"
        ref.mkdir()
        p = subprocess.run([cli, "--quiet", "--equalize", ref / "%n.jpg"]
                           + [tmp / "photos" / n for n in names], capture_output=True, text=True)
        if p.returncode != 0 and "built without GEGL" in p.stderr:
            skip("the CLI reads no JPEG (built without GEGL)")
        if p.returncode != 0:
            raise SystemExit(f"the local run failed: {p.stderr}")
        # The stand-in: what each call was given, a kill on request, the CLI.
        calls = tmp / "calls.log"
        stand_in = tmp / "bin" / "gpu-histogram-cli"
        stand_in.parent.mkdir()
        stand_in.write_text(
            "#!/bin/sh\nthreads=none prev=\n"
            'for a; do [ "$prev" = --threads ] && threads=$a; prev=$a; done\n'
            f'echo "${{CUDA_VISIBLE_DEVICES:-none}} $threads" >> {calls}\n'
            '# GH_TEST_KILL_ONCE=MARKER:FILE: the first call on FILE dies as a killed job.\n'
            'if [ -n "${GH_TEST_KILL_ONCE:-}" ]; then\n'
            '  marker=${GH_TEST_KILL_ONCE%%:*} victim=${GH_TEST_KILL_ONCE#*:}\n'
            '  for a; do\n'
            '    if [ "$a" = "$victim" ] && [ ! -e "$marker" ]; then touch "$marker"; kill -KILL $$; fi\n'
            '  done\nfi\n'
            f'exec {cli} "$@"\n')
        stand_in.chmod(0o755)

        def folder(name):
            """A fresh folder with photos/ and out/, the recipe's working folder."""
            work = tmp / name
            shutil.copytree(tmp / "photos", work / "photos")
            (work / "out").mkdir()
            return work

        sshd = Sshd(tmp)
        slurm = None
        env = dict(os.environ, PATH=f"{stand_in.parent}:{os.environ['PATH']}",
                   PARALLEL_SSH=sshd.ssh, PARALLEL_HOME=str(tmp / "parallel-home"),
                   # The stand-in's PATH (and its kill switch) on the ssh hosts too.
                   PARALLEL="--will-cite --env PATH --env GH_TEST_KILL_ONCE",
                   GH_TEST_KILL_ONCE="")

        def run(code, work, **extra):
            return subprocess.run(["bash", "-euc", code], cwd=work, env=dict(env, **extra),
                                  capture_output=True, text=True, timeout=300)

        try:
            # 1. transfer: each photo sent, equalized there, brought back.
            work = folder("transfer")
            p = run(doc["transfer"], work)
            rows = joblog(work / "jobs.log") if (work / "jobs.log").exists() else []
            checks.report("transfer: --transferfile, --return, --cleanup give the local run's "
                          "files",
                          f"exit {p.returncode}: {p.stderr[-400:]}" if p.returncode
                          else same_files(ref, [(work / "photos" / f"{s}-eq.jpg", f"{s}.jpg")
                                                for s in stems]))
            used = sorted({r[0] for r in rows})
            checks.report("transfer: every host took jobs (the joblog's Host column)",
                          None if used == sorted(HOSTS) else f"hosts used {used}")

            # 2. transfer, one job killed once, then --resume-failed.
            work = folder("resume")
            kill = f"{tmp / 'killed-once'}:{names[3]}"
            first = run(doc["transfer"], work, GH_TEST_KILL_ONCE=kill)
            results = [(work / "photos" / f"{s}-eq.jpg", f"{s}.jpg") for s in stems]
            lost = [f.name for f, _ in results if not f.exists()]
            checks.report("transfer: a killed job shows as failed, its result missing",
                          None if first.returncode != 0 and lost == [f"{stems[3]}-eq.jpg"]
                          else f"exit {first.returncode}, missing {lost}")
            # As the document says: the parallel line again, on the same list.
            lines = doc["transfer"].splitlines()
            again = [line for line in lines if not line.startswith("ls ")]
            again = run("\n".join(again).replace("parallel ", "parallel --resume-failed ", 1),
                        work, GH_TEST_KILL_ONCE=kill)
            rows = joblog(work / "jobs.log")
            checks.report("transfer: --resume-failed runs the killed job again, nothing missing, "
                          "the local run's files",
                          f"exit {again.returncode}: {again.stderr[-400:]}" if again.returncode
                          else f"{len(rows)} joblog rows, {len(names) + 1} expected"
                          if len(rows) != len(names) + 1
                          else same_files(ref, results))

            # 3. shared: several photos a CLI call, on three hosts.
            work = folder("shared")
            p = run(doc["shared"], work)
            checks.report("shared folder: -X batches on three hosts give the local run's files",
                          f"exit {p.returncode}: {p.stderr[-400:]}" if p.returncode
                          else same_files(ref, [(work / "out" / n, n) for n in names]))
        finally:
            sshd.stop()

        # 4. slurm: the array at this machine's size, then the shares.
        try:
            slurm = Slurm(tmp)
            work = folder("slurm")
            code = (doc["slurm"].replace("--array=0-99", "--array=0-2 --wait")
                    .replace("--cpus-per-task=8", "--cpus-per-task=1")
                    .replace("scripts/slurm-array.sh", str(SLURM)))
            p = run(code, work, SLURM_CONF=str(slurm.conf))
            logs = "".join(f.read_text() for f in work.glob("gpu-histogram-*.log"))
            checks.report("slurm: the array's tasks give the local run's files",
                          f"exit {p.returncode}: {p.stderr[-300:]} {logs[-300:]}" if p.returncode
                          else same_files(ref, [(work / "out" / n, n) for n in names]))
        finally:
            if slurm:
                slurm.stop()
        bad = []
        lst = tmp / "list.txt"
        for files in range(0, 24):
            lst.write_text("".join(f"f{k}\n" for k in range(files)))
            for count in range(1, 10):
                for first in (0, 5):
                    shares = []
                    for task in range(first, first + count):
                        r = subprocess.run(["bash", SLURM, lst], capture_output=True, text=True,
                                           env=dict(os.environ, SLURM_ARRAY_TASK_ID=str(task),
                                                    SLURM_ARRAY_TASK_MIN=str(first),
                                                    SLURM_ARRAY_TASK_COUNT=str(count),
                                                    GH_SLURM_DRY_RUN="1"))
                        shares.append(r.stdout.split())
                    flat = [f for share in shares for f in share]
                    sizes = [len(share) for share in shares]
                    if flat != [f"f{k}" for k in range(files)] or max(sizes) - min(sizes) > 1:
                        bad.append((count, files, first, sizes))
        checks.report("slurm-array.sh: every file in exactly one share, in order, shares even",
                      f"wrong shares (tasks, files, first index, sizes): {bad[:5]}" if bad
                      else None)

        # 5. gpus: two GPUs, the stand-in recording each process's share.
        work = folder("gpus")
        calls.unlink(missing_ok=True)
        p = run(doc["gpus"].replace("$(nvidia-smi -L | wc -l)", "2"), work)
        seen = sorted(calls.read_text().split("\n")[:-1]) if calls.exists() else []
        half = str(os.cpu_count() // 2)
        checks.report("gpus: slots 0 and 1, half the cores each, the local run's files",
                      f"exit {p.returncode}: {p.stderr[-300:]}" if p.returncode
                      else f"calls (CUDA_VISIBLE_DEVICES, --threads): {seen}"
                      if seen != [f"0 {half}", f"1 {half}"]
                      else same_files(ref, [(work / "out" / n, n) for n in names]))
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
