#!/bin/bash
# node 1 is allocated ~10 s after node 0 (slow image pull); rendezvous waits for it
R=/work/blind/r10/runs/022_healthy_late_node; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
COMMON="--nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:30122 --rdzv-id simclr-77 --rdzv-conf join_timeout=120"
timeout 90 /work/blind/venv/bin/torchrun $COMMON /work/blind/r10/gen/022_healthy_late_node.py > $R/node0.log 2>&1 &
sleep 10
timeout 90 /work/blind/venv/bin/torchrun $COMMON /work/blind/r10/gen/022_healthy_late_node.py > $R/node1.log 2>&1
echo "node1 rc=$?"
wait; echo "node0 rc=$?"
