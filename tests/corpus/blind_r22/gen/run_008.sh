#!/bin/bash
# two torchrun agents (--nnodes=2, c10d rendezvous on 127.0.0.1:27080), node0.log / node1.log
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/008_nan_loss_rank3; rm -rf $D; mkdir -p $D; cd $D
export OMP_NUM_THREADS=1
for n in 0 1; do
  timeout 150 /work/blind/venv/bin/torchrun --nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:27080 --rdzv_id=job008 --node_rank=$n $G/train_008.py > node$n.log 2>&1 &
  sleep 1
done
wait; echo done
