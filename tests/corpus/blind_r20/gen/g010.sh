#!/bin/bash
# 2-node bring-up: node b has a wrong rendezvous host (unreachable IP); node a waits until join timeout. torchrun c10d.
source /work/blind/r20/gen/common.sh
D=$R/010_two_node_bringup; rm -rf $D; mkdir -p $D; cd $W
export NSTEPS=30 FMT=plain
$TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:25020 --rdzv-id bringup010 --rdzv-conf join_timeout=45 --tee 3 $G/train.py > $D/node0_console.log 2>&1 &
A=$!
sleep 2
$TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 10.255.255.1:25020 --rdzv-id bringup010 --rdzv-conf join_timeout=45 --tee 3 $G/train.py > $D/node1_console.log 2>&1
echo rcB=$?
wait $A; echo rcA=$?
