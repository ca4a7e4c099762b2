#!/usr/bin/env python3
"""A per-host memory watcher: SIGKILLs any train.py worker whose RSS exceeds LIMIT_MB."""
import os, signal, sys, time
LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
end = time.time() + 100
while time.time() < end:
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline").read().split("\0")
            if not any(c.endswith("gen/train.py") for c in cmd) or "torchrun" in " ".join(cmd):
                continue
            env = dict(kv.split("=", 1) for kv in open(f"/proc/{pid}/environ").read().split("\0") if "=" in kv)
            if "LOCAL_RANK" not in env:
                continue
            rss = [int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")][0] // 1024
        except Exception:
            continue
        if rss > LIMIT:
            print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} memwatch: pid {pid} (RANK={env.get('RANK')}) rss {rss} MB > {LIMIT} MB, sending SIGKILL", flush=True)
            os.kill(int(pid), signal.SIGKILL)
    time.sleep(0.2)
