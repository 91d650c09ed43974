#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""doc/scale.md's recipes, run: a folder of photos spread over machines
gives the same files as one run on one machine.

An sshd of the test's own listens on 127.0.0.1 at a free port (host and
user keys made here, the keys' known_hosts and an ssh_config of its own, so
nothing else is reached); two ssh "hosts" (gh-a, gh-b) point at it.

1. GNU parallel over gh-a, gh-b and this machine (":"), each job one photo
   sent with --transferfile, its result brought back with --return and
   both removed there with --cleanup: every output byte for byte the one
   local run's, every host used (the --joblog's Host column).
2. The same with one job killed (SIGKILL, once) and the run resumed with
   --resume-failed on the same --joblog: nothing missing, every output
   the local run's, only the killed job run again.
3. A shared folder: -X batches (several photos a CLI call) on the three
   hosts, --workdir the folder: every output the local run's.
4. scripts/slurm-array.sh's shares (its GH_SLURM_DRY_RUN listing) for 1..9
   tasks over 0..23 files, from array index 0 and from 5: each file in
   exactly one share, in order, shares differing by at most one file.
5. A single-node Slurm of the test's own (munged, slurmctld and slurmd on
   this machine, private ports, key and folders; about a second to start):
   `sbatch --wait --array=0-2 scripts/slurm-array.sh LIST --equalize ...`
   gives the local run's files.
6. One process per GPU, as doc/scale.md writes it for two GPUs, with a
   stand-in CLI that logs its CUDA_VISIBLE_DEVICES and --threads before
   running the real one (on the CPU here): slots 0 and 1 each used, each
   call with half the cores, the local run's files.

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

import cv2

from checks import Checks

ROOT = Path(__file__).resolve().parent.parent
SLURM = ROOT / "scripts" / "slurm-array.sh"
HOSTS = ["gh-a", "gh-b", ":"]


def skip(why):
    print(f"{why}: skipping")
    sys.exit(77)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def photos(folder, n=12):
    """n photo-like PNGs cut from testimages/ (distinct crops and sizes)."""
    folder.mkdir()
    sources = sorted((ROOT / "testimages").glob("*.png"))
    names = []
    for k in range(n):
        img = cv2.imread(str(sources[k % len(sources)]), cv2.IMREAD_UNCHANGED)
        h, w = img.shape[:2]
        crop = img[k * 7 % (h // 3):, k * 11 % (w // 3):]
        names.append(f"photo{k:02d}.png")
        cv2.imwrite(str(folder / names[-1]), crop)
    return names


class Sshd:
    """A private sshd on 127.0.0.1 and an ssh_config naming it gh-a, gh-b."""

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
            if subprocess.run(self.ssh.split() + ["gh-a", "true"],
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
        self.env = dict(os.environ, SLURM_CONF=str(conf))
        for daemon in ("slurmctld", "slurmd"):
            subprocess.run([daemon, "-f", conf], env=self.env, check=True)
        for _ in range(120):
            p = subprocess.run(["sinfo", "-h", "-o", "%T"], env=self.env, capture_output=True,
                               text=True)
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


def same_files(ref, folder, names):
    """None when every name's file in `folder` equals ref's, else why."""
    missing = [n for n in names if not (folder / n).exists()]
    if missing:
        return f"missing {missing}"
    differ = [n for n in names if (folder / n).read_bytes() != (ref / n).read_bytes()]
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
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        names = photos(tmp / "photos")
        out_names = [n.replace(".png", "-eq.png") for n in names]
        ref = tmp / "ref"
        ref.mkdir()
        p = subprocess.run([cli, "--quiet", "--equalize", ref / "%n-eq.png"]
                           + [tmp / "photos" / n for n in names], capture_output=True, text=True)
        if p.returncode != 0 and "built without GEGL" in p.stderr:
            skip("the CLI reads no PNG (built without GEGL)")
        if p.returncode != 0:
            raise SystemExit(f"the local run failed: {p.stderr}")
        sshd = Sshd(tmp)
        try:
            env = dict(os.environ, PARALLEL_HOME=str(tmp / "parallel-home"))
            base = ["parallel", "--will-cite", "--ssh", sshd.ssh, "-S", ",".join(HOSTS)]

            # 1. Each photo sent, equalized there, brought back.
            work = tmp / "transfer"
            shutil.copytree(tmp / "photos", work)
            p = subprocess.run(base + ["--transferfile", "{}", "--return", "{.}-eq.png",
                                       "--cleanup", "--joblog", "jobs.log", "-j", "2",
                                       cli, "--quiet", "--equalize", "{.}-eq.png", "{}",
                                       ":::"] + names,
                               cwd=work, env=env, capture_output=True, text=True, timeout=300)
            rows = joblog(work / "jobs.log") if (work / "jobs.log").exists() else []
            checks.report("ssh: --transferfile, --return, --cleanup give the local run's files",
                          f"parallel exit {p.returncode}: {p.stderr[-400:]}" if p.returncode
                          else same_files(ref, work, out_names))
            used = sorted({r[0] for r in rows})
            checks.report("ssh: every host took jobs (joblog's Host column)",
                          None if used == sorted(HOSTS) else f"hosts used {used}")

            # 2. One job killed once, then --resume-failed.
            work = tmp / "resume"
            shutil.copytree(tmp / "photos", work)
            killed = tmp / "killed-once"
            job = tmp / "job.sh"
            job.write_text("#!/bin/sh\n# The fourth photo's first run dies as a killed job would.\n"
                           f"if [ \"$1\" = {names[3]} ] && [ ! -e {killed} ]; then\n"
                           f"  touch {killed}; kill -KILL $$\nfi\n"
                           f"exec {cli} --quiet --equalize \"${{1%.png}}-eq.png\" \"$1\"\n")
            job.chmod(0o755)
            run = base + ["--transferfile", "{}", "--return", "{.}-eq.png", "--cleanup",
                          "--joblog", "jobs.log", "-j", "2", job, "{}", ":::"] + names
            first = subprocess.run(run, cwd=work, env=env, capture_output=True, text=True,
                                   timeout=300)
            lost = [n for n in out_names if not (work / n).exists()]
            checks.report("ssh: a killed job shows as failed and its file is missing",
                          None if first.returncode != 0 and lost == [out_names[3]]
                          else f"exit {first.returncode}, missing {lost}")
            again = subprocess.run(run[:1] + ["--resume-failed"] + run[1:], cwd=work, env=env,
                                   capture_output=True, text=True, timeout=300)
            rows = joblog(work / "jobs.log")
            reruns = [r for r in rows if r[3].endswith(names[3])]
            checks.report("ssh: --resume-failed runs the killed job again, nothing missing, "
                          "the local run's files",
                          f"parallel exit {again.returncode}: {again.stderr[-400:]}"
                          if again.returncode
                          else f"joblog rows {len(rows)}: {len(names) + 1} expected"
                          if len(rows) != len(names) + 1 or len(reruns) != 2
                          else same_files(ref, work, out_names))

            # 3. A shared folder, several photos a CLI call.
            out = tmp / "shared-out"
            out.mkdir()
            p = subprocess.run(base + ["--workdir", str(tmp), "-X", "-j", "1", cli, "--quiet",
                                       "--equalize", str(out / "%n-eq.png"), ":::"]
                               + [str(tmp / "photos" / n) for n in names],
                               env=env, capture_output=True, text=True, timeout=300)
            checks.report("shared folder: -X batches on three hosts give the local run's files",
                          f"parallel exit {p.returncode}: {p.stderr[-400:]}" if p.returncode
                          else same_files(ref, out, out_names))
        finally:
            sshd.stop()

        # 4. Slurm's shares, then three tasks for real.
        bad = []
        for count in range(1, 10):
            for files in range(0, 24):
                lst = tmp / "list.txt"
                lst.write_text("".join(f"f{k}\n" for k in range(files)))
                for start in (0, 5):
                    shares = []
                    for task in range(start, start + count):
                        env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(task),
                                   SLURM_ARRAY_TASK_MIN=str(start),
                                   SLURM_ARRAY_TASK_COUNT=str(count), GH_SLURM_DRY_RUN="1")
                        r = subprocess.run(["bash", SLURM, lst], env=env, capture_output=True,
                                           text=True)
                        shares.append(r.stdout.split())
                    flat = [f for s in shares for f in s]
                    sizes = [len(s) for s in shares]
                    if flat != [f"f{k}" for k in range(files)] or max(sizes) - min(sizes) > 1:
                        bad.append((count, files, start, sizes))
        checks.report("slurm-array.sh: every file in exactly one share, in order, shares even",
                      f"wrong shares (tasks, files, first index, sizes): {bad[:5]}" if bad
                      else None)
        lst = tmp / "photos.list"
        lst.write_text("".join(f"{tmp / 'photos' / n}\n" for n in names))
        out = tmp / "slurm-out"
        out.mkdir()
        slurm = Slurm(tmp)
        try:
            p = subprocess.run(["sbatch", "--wait", "--array=0-2", "--cpus-per-task=1",
                                f"--output={tmp / 'slurm-%A_%a.log'}",
                                f"--export=ALL,GH_CLI={cli}", SLURM, lst,
                                "--equalize", out / "%n-eq.png"],
                               env=slurm.env, capture_output=True, text=True, timeout=300)
            logs = "".join(f.read_text() for f in tmp.glob("slurm-*.log"))
            checks.report("slurm: sbatch --array=0-2 gives the local run's files",
                          f"sbatch exit {p.returncode}: {p.stderr[-300:]} {logs[-300:]}"
                          if p.returncode else same_files(ref, out, out_names))
        finally:
            slurm.stop()

        # 6. One process per GPU (two), the CLI a stand-in that logs.
        out = tmp / "gpus-out"
        out.mkdir()
        seen = tmp / "gpus.log"
        stand_in = tmp / "bin" / "gpu-histogram-cli"
        stand_in.parent.mkdir()
        stand_in.write_text(f"#!/bin/sh\necho \"$CUDA_VISIBLE_DEVICES $3\" >> {seen}\n"
                            f"exec {cli} \"$@\"\n")
        stand_in.chmod(0o755)
        recipe = ("gpus=2\n"
                  "ls photos/*.png | parallel --will-cite -j \"$gpus\" -X "
                  "'CUDA_VISIBLE_DEVICES=$(({%} - 1)) gpu-histogram-cli --quiet "
                  "--threads '$(( $(nproc) / gpus ))' --equalize gpus-out/%n-eq.png {}'\n")
        env = dict(os.environ, PATH=f"{stand_in.parent}:{os.environ['PATH']}",
                   PARALLEL_HOME=str(tmp / "parallel-home"))
        p = subprocess.run(["bash", "-c", recipe], cwd=tmp, env=env, capture_output=True,
                           text=True, timeout=300)
        calls = sorted(seen.read_text().split("\n")[:-1]) if seen.exists() else []
        half = str(max(os.cpu_count() // 2, 0))
        checks.report("one process per GPU: slots 0 and 1, half the cores each, the local "
                      "run's files",
                      f"exit {p.returncode}: {p.stderr[-300:]}" if p.returncode
                      else f"calls (CUDA_VISIBLE_DEVICES, --threads): {calls}"
                      if calls != [f"0 {half}", f"1 {half}"]
                      else same_files(ref, out, out_names))
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
