# Stand-in for a cgroup memory limit: SIGKILL any process whose cmdline contains
# PATTERN once its RSS exceeds LIMIT_MB. Writes only to its own stdout (not part of the run).
import os, sys, time, signal
pat, limit = sys.argv[1], int(sys.argv[2]); deadline = time.time() + float(sys.argv[3])
while time.time() < deadline:
    for p in os.listdir("/proc"):
        if not p.isdigit(): continue
        try:
            cmd = open(f"/proc/{p}/cmdline", "rb").read().replace(b"\0", b" ").decode()
            if pat not in cmd or "oom_watchdog" in cmd: continue
            rss = int(open(f"/proc/{p}/statm").read().split()[1]) * 4096 >> 20
        except Exception: continue
        if rss > limit:
            os.kill(int(p), signal.SIGKILL); print(f"watchdog: killed {p} rss={rss}MB > {limit}MB", flush=True)
    time.sleep(0.1)
