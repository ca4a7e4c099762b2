#!/usr/bin/env python3
"""earlyoom-like watcher: memwatch.py LIMIT_MB INTERVAL_MS. SIGKILLs a training process (FAIL=oom_watch in its
environment) whose RSS passes LIMIT_MB, as a node's memory guard would."""
import os, signal, sys, time
limit, interval = int(sys.argv[1]), int(sys.argv[2]) / 1000
while True:
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            env = open(f"/proc/{pid}/environ", "rb").read()
            if b"FAIL=oom_watch" not in env or b"RANK=" not in env:
                continue
            rss = int(open(f"/proc/{pid}/statm").read().split()[1]) * 4096 / 2**20
            if rss > limit:
                print(f"{time.strftime('%H:%M:%S')} memwatch: pid {pid} rss {rss:.0f}MB > {limit}MB: SIGKILL", flush=True)
                os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError):
            pass
    time.sleep(interval)
