#!/bin/bash
# Two-node torchrun job (c10d rendezvous, --nnodes 2); only node 0's agent is started (the
# second node's launch never happened). Rendezvous join times out after 20 s; no worker ever runs.
. /work/blind/r15/gen/env.sh
R=016_torchrun_rdzv_node_missing; D=$DATA/ds_016; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 2
cd $RUNS/$R
timeout 120 $TORCHRUN --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:21116 \
  --rdzv-id job-8812 --rdzv-conf join_timeout=20 $GEN/train.py --data-dir $D --log-every 5 > console.log 2>&1
echo "rc=$?"
