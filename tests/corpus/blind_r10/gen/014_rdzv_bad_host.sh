#!/bin/bash
# node 1's launch line was copied from an old runbook: rendezvous endpoint names a host that no longer exists
R=/work/blind/r10/runs/014_rdzv_bad_host; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
COMMON="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-id speech-ft-0412 --rdzv-conf join_timeout=30"
timeout 90 /work/blind/venv/bin/torchrun $COMMON --rdzv-endpoint 127.0.0.1:30114 /work/blind/r10/gen/014_rdzv_bad_host.py > $R/node0.log 2>&1 &
sleep 2
timeout 90 /work/blind/venv/bin/torchrun $COMMON --rdzv-endpoint gpu-a100-017.cluster.internal:30114 /work/blind/r10/gen/014_rdzv_bad_host.py > $R/node1.log 2>&1
echo "node1 rc=$?"
wait; echo "node0 rc=$?"
