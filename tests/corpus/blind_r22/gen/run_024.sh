#!/bin/bash
# two torchrun agents (c10d rdzv 127.0.0.1:27240), 2 procs each; node1's agent gets SIGTERM after ~18 s
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/024_node1_agent_sigterm; rm -rf $D; mkdir -p $D; cd $D
export OMP_NUM_THREADS=1
timeout 150 /work/blind/venv/bin/torchrun --nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:27240 --rdzv_id=job024 $G/train_024.py > node0.log 2>&1 &
sleep 1
/work/blind/venv/bin/torchrun --nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:27240 --rdzv_id=job024 $G/train_024.py > node1.log 2>&1 &
A1=$!
sleep 18; echo "SIGTERM -> node1 agent pid $A1"; kill -TERM $A1
wait; echo done
