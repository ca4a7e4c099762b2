#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=020_second_node_missing; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
# node B never comes up (its agent is not started)
$TORCHRUN --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:24020 --rdzv-id job020 --rdzv-conf join_timeout=40 --tee 3 \
  $G/train.py --steps 60 --timeout 40 --run-id $RUN --fmt plain > $OUT/nodeA.log 2>&1
echo "exit=$?"
