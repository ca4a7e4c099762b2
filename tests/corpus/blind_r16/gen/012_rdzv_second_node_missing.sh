#!/bin/bash
# torchrun agent for node 0 of 2 (c10d rendezvous, join_timeout=20s); node 1's agent points at a wrong
# endpoint port (typo) so it waits on its own store and never joins node 0's rendezvous.
NAME=012_rdzv_second_node_missing; source /work/blind/r16/gen/common.sh
STEPS=30 LOGFMT=plain $TORCHRUN --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-id=exp42 \
   --rdzv-endpoint=127.0.0.1:21012 --rdzv-conf join_timeout=20 $TRAIN > node0_torchrun.log 2>&1 &
sleep 2
STEPS=30 LOGFMT=plain $TORCHRUN --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-id=exp42 \
   --rdzv-endpoint=127.0.0.1:21112 --rdzv-conf join_timeout=20 $TRAIN > node1_torchrun.log 2>&1 &
wait
