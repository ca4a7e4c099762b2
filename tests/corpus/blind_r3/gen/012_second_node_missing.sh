#!/bin/bash
# torchrun --nnodes 2 with c10d rendezvous; only node 0's agent is launched.
R=/work/blind/r3/runs/012_second_node_missing; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job012; mkdir -p $J; cp /work/blind/r3/gen/012_second_node_missing.py $J/train_multinode.py
cd $J
{
echo "+ launching on $(hostname) as node 0 of 2, rdzv endpoint 127.0.0.1:29512 (job id ft-4471)"
/work/blind/venv/bin/torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29512 \
  --rdzv-id ft-4471 --rdzv-conf join_timeout=30 --max-restarts 0 train_multinode.py
} > $R/console.log 2>&1
echo "exit $?"
