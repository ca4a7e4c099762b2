#!/bin/bash
# two torchrun agents with c10d rendezvous; node1 was given a stale rendezvous host (192.0.2.10, unreachable)
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/012_rdzv_stale_host_node1; rm -rf $D; mkdir -p $D; cd $D
export OMP_NUM_THREADS=1
timeout 150 /work/blind/venv/bin/torchrun --nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:27120 --rdzv_id=job012 --rdzv_conf=join_timeout=45 $G/train_012.py > node0.log 2>&1 &
sleep 2
timeout 150 /work/blind/venv/bin/torchrun --nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d --rdzv_endpoint=192.0.2.10:27120 --rdzv_id=job012 --rdzv_conf=join_timeout=45 $G/train_012.py > node1.log 2>&1 &
wait; echo done
