#!/bin/bash
# Two torchrun agents, c10d rendezvous, --nnodes 2 --nproc-per-node 2 on localhost (node A, node B).
# Node B's scratch is a read-only bind mount. Console of both agents goes to one file.
set -u
RUN=/work/blind/r2/runs/006_ckpt_readonly_node_r2; D=/work/blind/r2/data/006
mountpoint -q $D/nodeB_scratch && umount $D/nodeB_scratch
rm -rf $RUN $D; mkdir -p $RUN $D/nodeA_scratch $D/nodeB_scratch; cd $RUN
mount --bind $D/nodeB_scratch $D/nodeB_scratch && mount -o remount,bind,ro $D/nodeB_scratch
export OMP_NUM_THREADS=1
: > console.log
common="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29616 --rdzv-id job006 --max-restarts 0"
SIM_NODE=A SCRATCH=$D/nodeA_scratch /work/blind/venv/bin/torchrun $common /work/blind/r2/gen/006_ckpt_readonly_node_r2.py >> console.log 2>&1 &
A=$!
sleep 3
SIM_NODE=B SCRATCH=$D/nodeB_scratch /work/blind/venv/bin/torchrun $common /work/blind/r2/gen/006_ckpt_readonly_node_r2.py >> console.log 2>&1 &
B=$!
wait $A; echo "node A exit $?"; wait $B; echo "node B exit $?"
umount $D/nodeB_scratch
