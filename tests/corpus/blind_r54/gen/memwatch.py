# External memory watcher: SIGKILLs any process tagged R54TAG=<tag> whose RSS exceeds LIMIT MB.
import os, sys, time, signal, datetime
tag, limit = sys.argv[1], int(sys.argv[2])
print(f"{datetime.datetime.now().isoformat()} memwatch: watching processes tagged {tag}, rss limit {limit} MB", flush=True)
end = time.time() + 150
while time.time() < end:
    for pid in os.listdir("/proc"):
        if not pid.isdigit(): continue
        try:
            env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
            if f"R54TAG={tag}".encode() not in env: continue
            rank = next((e.split(b"=")[1].decode() for e in env if e.startswith(b"RANK=")), "?")
            rss = next(int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")) // 1024
        except Exception: continue
        if rss > limit:
            print(f"{datetime.datetime.now().isoformat()} memwatch: pid {pid} (RANK={rank}) rss={rss} MB exceeds limit {limit} MB, sending SIGKILL", flush=True)
            os.kill(int(pid), signal.SIGKILL)
    time.sleep(0.2)
