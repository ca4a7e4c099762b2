# Stand-in for the kernel OOM killer: every 0.2 s, look at all processes whose command
# line contains PATTERN; if one has VmRSS above LIMIT_MB, SIGKILL it (and only it), like
# the kernel would do for the biggest task in an exhausted memory cgroup. Exits when
# no matching process is left or after MAX_S seconds.
import os, signal, sys, time

pattern, limit_mb, max_s = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
t0 = time.time()
seen = False
while time.time() - t0 < max_s:
    found = False
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            if pattern not in cmd or "torchrun" in cmd or "oom_watchdog" in cmd:
                continue
            found = True
            with open(f"/proc/{pid}/status") as f:
                rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:")) / 1024
            if rss > limit_mb:
                os.kill(int(pid), signal.SIGKILL)
                print(f"oom_watchdog: killed pid {pid} rss={rss:.0f}MB > {limit_mb:.0f}MB", file=sys.stderr)
        except (FileNotFoundError, ProcessLookupError, StopIteration, PermissionError):
            pass
    if found:
        seen = True
    elif seen:
        break
    time.sleep(0.2)
