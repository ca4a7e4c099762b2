"""External memory enforcement for one rank of a run (not part of the training code).
mode kill:   poll VmRSS of the process whose environment has R47_CASE=mem and the given rank; SIGKILL it over the limit
             (what a user-space OOM killer like earlyoom does).
mode cgroup: move that process into a cgroup-v1 memory cgroup with memory.limit_in_bytes=limit; the kernel OOM killer acts.
"""
import os, signal, sys, time

mode, rank, limit_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
deadline = time.time() + 240


def find():
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            env = open(f"/proc/{p}/environ", "rb").read().split(b"\0")
            cmd = open(f"/proc/{p}/cmdline", "rb").read()
        except OSError:
            continue
        if b"R47_CASE=mem" in env and b"train.py" in cmd and (
                f"RANK={rank}".encode() in env or f"SLURM_PROCID={rank}".encode() in env) \
                and b"python" in cmd and b"torchrun" not in cmd:
            return int(p)


pid = None
while time.time() < deadline and pid is None:
    pid = find()
    time.sleep(0.2)
print(f"watcher: rank {rank} is pid {pid}", file=sys.stderr)
if mode == "cgroup":
    cg = "/sys/fs/cgroup/memory/r47mem"
    os.makedirs(cg, exist_ok=True)
    open(f"{cg}/memory.limit_in_bytes", "w").write(str(limit_mb * 1024 * 1024))
    open(f"{cg}/cgroup.procs", "w").write(str(pid))
    sys.exit(0)
while time.time() < deadline:
    try:
        rss = [l for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")][0]
    except OSError:
        break
    if int(rss.split()[1]) > limit_mb * 1024:
        os.kill(pid, signal.SIGKILL)
        print(f"watcher: killed pid {pid} at {rss.strip()}", file=sys.stderr)
        break
    time.sleep(0.1)
