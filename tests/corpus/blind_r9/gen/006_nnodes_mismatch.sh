#!/bin/bash
# two agents on two "nodes" with c10d rendezvous; node 1 was launched from a stale script that still says --nnodes 3
R=/work/blind/r9/runs/006_nnodes_mismatch; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
NODE_ID=0 timeout -k 10 90 /work/blind/venv/bin/torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:30007 --rdzv-id job4417 \
    --rdzv-conf join_timeout=40 /work/blind/r9/gen/006_nnodes_mismatch.py > $R/node0.out 2>&1 &
sleep 3
NODE_ID=1 timeout -k 10 90 /work/blind/venv/bin/torchrun --nnodes 3 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:30007 --rdzv-id job4417 \
    --rdzv-conf join_timeout=40 /work/blind/r9/gen/006_nnodes_mismatch.py > $R/node1.out 2>&1 &
wait
