#!/usr/bin/env bash
# plain failures: checkpoint load, import, port, rendezvous, fds, divergence
source "$(dirname "$0")/common.sh"
mkck() { $PY -c "
import torch, torch.nn as nn, sys
m = nn.Sequential(nn.Linear(16, $2), nn.ReLU(), nn.Linear($2, 1)); torch.save({'model': m.state_dict(), 'step': 1200}, '$1')"; }
r020() { newrun 020; mkck $W/ck20.pt 32; head -c 1500 $W/ck20.pt > $W/ck20_torn.pt; CKPT=$W/ck20_torn.pt SCEN=ckpt_corrupt FMT=logging timeout 120 $TR --nproc-per-node 2 --master-port 29520 $G/worker.py > console.log 2>&1; }
r021() { newrun 021; mkck $W/ck21.pt 64; sbatch -W -J resume -n 2 -o slurm-%j.out --wrap "CKPT=$W/ck21.pt SCEN=ckpt_mismatch FMT=json MASTER_PORT=29521 srun $PY $G/worker.py" >/dev/null; }
r022() { newrun 022; SCEN=import FMT=logging timeout 120 $TR --nproc-per-node 4 --master-port 29522 $G/worker.py > console.log 2>&1; }
r023() { newrun 023; $PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',29523)); s.listen(); time.sleep(40)" & bp=$!; sleep 2
  FMT=logging timeout 120 $TR --nproc-per-node 2 --master-port 29523 $G/worker.py > console.log 2>&1; kill $bp; }
r024() { newrun 024; FMT=logging timeout 200 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29524 --rdzv-id job24 --rdzv-conf join_timeout=30 $G/worker.py > node0.log 2>&1; }
r025() { newrun 025; sbatch -W -J fds -n 2 -o slurm-%j.out --wrap "ulimit -n 256; SCEN=emfile TARGET=0 AT=3 FMT=prefixed MASTER_PORT=29525 srun $PY $G/worker.py" >/dev/null; }
r028() { newrun 028; LR=3.0 SCEN=diverge STEPS=40 FMT=tqdm timeout 120 $TR --nproc-per-node 2 --master-port 29528 $G/worker.py > console.log 2>&1; }
"$@"
