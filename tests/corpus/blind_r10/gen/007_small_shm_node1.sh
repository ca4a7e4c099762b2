#!/bin/bash
# two "nodes" on one host: node 1's container was started without --shm-size (64k-ish /dev/shm)
R=/work/blind/r10/runs/007_small_shm_node1; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
TR="/work/blind/venv/bin/torchrun --nnodes 2 --master-addr 127.0.0.1 --master-port 30107 --tee 3"
timeout 90 $TR --nproc-per-node 2 --node-rank 0 /work/blind/r10/gen/007_small_shm_node1.py > $R/node0.log 2>&1 &
timeout 90 unshare -m bash -c "mount -t tmpfs -o size=512k shm /dev/shm && exec $TR --nproc-per-node 1 --node-rank 1 /work/blind/r10/gen/007_small_shm_node1.py" > $R/node1.log 2>&1
echo "node1 rc=$?"
wait; echo "node0 rc=$?"
