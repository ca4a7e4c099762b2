#!/usr/bin/env python3
# tiny home-grown launcher: prefixes worker stdout, stderr passes straight through
import os, sys, subprocess, threading, time, signal, datetime
n = int(sys.argv[1]); cmd = sys.argv[2:]
def ts(): return datetime.datetime.now().strftime("%H:%M:%S")
procs = []
def pump(r, p):
    for line in p.stdout:
        sys.stdout.write(f"w{r}| {line}"); sys.stdout.flush()
print(f"{ts()} launch: starting {n} workers: {' '.join(cmd)}", flush=True)
for r in range(n):
    env = dict(os.environ, RANK=str(r), WORLD_SIZE=str(n), LOCAL_RANK=str(r), MASTER_ADDR="127.0.0.1")
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True)
    procs.append(p); threading.Thread(target=pump, args=(r, p), daemon=True).start()
failed = None
while True:
    alive = [p for p in procs if p.poll() is None]
    bad = [(i, p.returncode) for i, p in enumerate(procs) if p.returncode not in (None, 0)]
    if bad and failed is None:
        failed = bad[0]
        print(f"{ts()} launch: worker {failed[0]} exited with code {failed[1]}; stopping the rest in 5s", flush=True)
        time.sleep(5)
        for p in procs:
            if p.poll() is None: p.send_signal(signal.SIGTERM)
    if not alive: break
    time.sleep(0.5)
for i, p in enumerate(procs):
    print(f"{ts()} launch: worker {i} returncode={p.returncode}", flush=True)
sys.exit(1 if any(p.returncode for p in procs) else 0)
