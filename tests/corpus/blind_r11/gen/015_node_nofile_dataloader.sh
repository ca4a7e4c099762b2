#!/bin/bash
# (the job wrapper kills each node agent after 60 s.)
# Two "nodes": node-a runs 2 workers, node-b (1 worker). node-b's limits.conf was never updated after
# re-imaging and gives jobs a soft nofile limit of 96. Each agent's console goes to its own file.
R=/work/blind/r11; RUN=$R/runs/015_node_nofile_dataloader
rm -rf $RUN && mkdir -p $RUN && cd $RUN
export OMP_NUM_THREADS=1
COMMON="--nnodes 2 --master-addr 127.0.0.1 --master-port 31115"
(NODE_NAME=node-a timeout 60 /work/blind/venv/bin/torchrun $COMMON --nproc-per-node 2 --node-rank 0 $R/gen/015_node_nofile_dataloader.py > node-a.out 2>&1) &
(ulimit -n 96; NODE_NAME=node-b timeout 60 /work/blind/venv/bin/torchrun $COMMON --nproc-per-node 1 --node-rank 1 $R/gen/015_node_nofile_dataloader.py > node-b.out 2>&1) &
wait
