#!/bin/bash
# truncated checkpoint shard loaded by rank 3; two torchrun agents as 2 nodes (c10d rendezvous)
source /work/blind/r20/gen/common.sh
D=$R/007_two_node_resume; rm -rf $D; mkdir -p $D; cd $W
C=$W/ckpt007/step_000020; rm -rf $W/ckpt007; $PY $G/mkckpt.py $C 4 32
truncate -s 300000 $C/shard_03.pt   # torn write from the previous job's node failure
export RESUME=$C NSTEPS=25 FMT=plain LOG_ALL=1
$TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:25017 --rdzv-id resume007 --tee 3 $G/train.py > $D/node_a.log 2>&1 &
A=$!
sleep 3
$TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:25017 --rdzv-id resume007 --tee 3 $G/train.py > $D/node_b.log 2>&1
echo rcB=$?
wait $A; echo rcA=$?
