"""earlyoom-like user-space watcher: SIGKILL the descendant of PID whose RSS exceeds LIMIT MiB. Usage: rss_watch.py LIMIT PID"""
import os, sys, time, signal
limit, root = int(sys.argv[1]), int(sys.argv[2])
def kids(pid):
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(open(f"/proc/{d}/stat").read().rsplit(")", 1)[1].split()[1])
            except Exception:
                continue
            if ppid == pid:
                out.append(int(d)); out += kids(int(d))
    return out
def rss(pid):
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS:"):
            return int(l.split()[1]) // 1024
    return 0
print(f"memwatch: watching pid {root} and children, kill threshold VmRSS > {limit} MiB", flush=True)
while os.path.exists(f"/proc/{root}"):
    for p in [root] + kids(root):
        try:
            r = rss(p)
            if r > limit:
                name = open(f"/proc/{p}/comm").read().strip()
                print(time.strftime("%Y-%m-%d %H:%M:%S"), f"memwatch: low memory! sending SIGKILL to process {p} \"{name}\": VmRSS {r} MiB > {limit} MiB", flush=True)
                os.kill(p, signal.SIGKILL)
        except (FileNotFoundError, ProcessLookupError):
            pass
    time.sleep(0.2)
