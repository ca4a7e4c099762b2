#!/bin/bash
# two torchrun agents (node0, node1), each with per-rank log files and no tee
R=/work/blind/r12/runs/005_eval_split_missing
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
A="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:32105 --rdzv-id job5 --redirects 3"
timeout 60 /work/blind/venv/bin/torchrun $A --node-rank 0 --log-dir $R/node0_logs /work/blind/r12/gen/005_eval_split_missing.py > $R/node0_agent.log 2>&1 &
sleep 1
timeout 60 /work/blind/venv/bin/torchrun $A --node-rank 1 --log-dir $R/node1_logs /work/blind/r12/gen/005_eval_split_missing.py > $R/node1_agent.log 2>&1
echo "exit=$?" >> $R/node1_agent.log
wait %1; echo "exit=$?" >> $R/node0_agent.log
rm -rf $R/data
