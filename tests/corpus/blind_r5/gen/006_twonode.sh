#!/bin/bash
D=/work/blind/r5/runs/006_twonode; mkdir -p $D; cd $D
mkdir -p /tmp/r5_006/nodeA /tmp/r5_006/nodeB
mount --bind /tmp/r5_006/nodeB /tmp/r5_006/nodeB && mount -o remount,bind,ro /tmp/r5_006/nodeB
export OMP_NUM_THREADS=1
A="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29616"
NODE_NAME=gpu-a01 CKPT_ROOT=/tmp/r5_006/nodeA timeout 60 /work/blind/venv/bin/torchrun $A --node-rank 0 /work/blind/r5/gen/006_twonode.py > node0_console.log 2>&1 &
P0=$!
NODE_NAME=gpu-a02 CKPT_ROOT=/tmp/r5_006/nodeB timeout 60 /work/blind/venv/bin/torchrun $A --node-rank 1 /work/blind/r5/gen/006_twonode.py > node1_console.log 2>&1 &
P1=$!
wait $P0; echo "node0 exit=$?"; wait $P1; echo "node1 exit=$?"
umount /tmp/r5_006/nodeB; mount | grep r5_006
