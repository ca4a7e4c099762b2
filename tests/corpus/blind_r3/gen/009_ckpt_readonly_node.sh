#!/bin/bash
# two torchrun agents (--nnodes 2, static), one console log per node.
# node 1's checkpoint dir is a read-only bind mount.
R=/work/blind/r3/runs/009_ckpt_readonly_node; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job009; mkdir -p $J/node0/ckpt $J/node1/ckpt $J/node1/ckpt_src
cp /work/blind/r3/gen/009_ckpt_readonly_node.py $J/train_zero1.py
mount --bind $J/node1/ckpt_src $J/node1/ckpt && mount -o remount,bind,ro $J/node1/ckpt
cd $J
TR=/work/blind/venv/bin/torchrun
COMMON="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29509"
CKPT_ROOT=$J $TR $COMMON --node-rank 0 train_zero1.py > $R/node0.log 2>&1 &
P0=$!
CKPT_ROOT=$J $TR $COMMON --node-rank 1 train_zero1.py > $R/node1.log 2>&1 &
P1=$!
wait $P0; echo "node0 exit $?"; wait $P1; echo "node1 exit $?"
umount $J/node1/ckpt
