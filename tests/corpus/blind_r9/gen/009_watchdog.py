# node agent: polls the instance metadata for reclaim notices and terminates the processes bound to the reclaimed slot
import os, sys, time, signal, datetime
def log(m): print(f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S} node-agent[{os.getpid()}]: {m}", flush=True)
def find(slot):
    for pid in os.listdir("/proc"):
        if not pid.isdigit(): continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read()
            env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
        except OSError: continue
        if b"009_spot_reclaim_one_worker.py" in cmd and b"torchrun" not in cmd and f"LOCAL_RANK={slot}".encode() in env:
            return int(pid)
log("started, polling metadata every 2s")
for i in range(6):
    time.sleep(2); log("metadata: no notice")
slot = 2
log(f"metadata: reclaim notice for accelerator slot {slot} (spot capacity reclaimed, 30s grace)")
pid = find(slot)
log(f"terminating training process pid={pid} bound to slot {slot} (SIGTERM)")
os.kill(pid, signal.SIGTERM)
