#!/bin/bash
# Multi-node launch (--nnodes 2, c10d rendezvous) where only node A's torchrun agent ever starts
# (node B's launcher never came up). Rendezvous join_timeout shortened to 25 s.
set -u
RUN=/work/blind/r2/runs/012_rdzv_timeout
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1
/work/blind/venv/bin/torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29622 \
    --rdzv-id job012 --rdzv-conf join_timeout=25 --max-restarts 0 \
    /work/blind/r2/gen/012_rdzv_timeout.py > console.log 2>&1
echo "exit code $?"
