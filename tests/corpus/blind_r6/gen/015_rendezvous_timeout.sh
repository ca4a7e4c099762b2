#!/bin/bash
# two torchrun agents standing in for 2 nodes; the launch script for "node 1" was generated with
# a different rendezvous id (stale RUN_ID from the previous submission), so the two agents never
# meet in the same rendezvous; both give up after join_timeout.
R=/work/blind/r6/runs/015_rendezvous_timeout; rm -rf $R; mkdir -p $R
export OMP_NUM_THREADS=1 LOGLEVEL=INFO
cd $R
timeout 85 /work/blind/venv/bin/torchrun --nnodes 2 --node-rank 0 --nproc-per-node 2 --rdzv-backend c10d \
   --rdzv-endpoint 127.0.0.1:29715 --rdzv-id ft-run-20261203-a --rdzv-conf join_timeout=35 \
   /work/blind/r6/gen/015_rendezvous_timeout.py > $R/node0.log 2>&1 &
sleep 3
timeout 85 /work/blind/venv/bin/torchrun --nnodes 2 --node-rank 1 --nproc-per-node 2 --rdzv-backend c10d \
   --rdzv-endpoint 127.0.0.1:29715 --rdzv-id ft-run-20261202-b --rdzv-conf join_timeout=35 \
   /work/blind/r6/gen/015_rendezvous_timeout.py > $R/node1.log 2>&1 &
wait
