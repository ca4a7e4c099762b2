#!/bin/bash
R=/work/blind/r8/runs/015_node_lost; rm -rf $R; mkdir -p $R
export OMP_NUM_THREADS=1
cd $R
NODE_NAME=gpu-a01 timeout 90 /work/blind/venv/bin/torchrun --nnodes 2 --nproc-per-node 2 --node-rank 0 \
  --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29915 --rdzv-id job15 --max-restarts 0 \
  /work/blind/r8/gen/015_node_lost.py > $R/gpu-a01.log 2>&1 &
A=$!
sleep 2
setsid bash -c "NODE_NAME=gpu-a02 exec /work/blind/venv/bin/torchrun --nnodes 2 --nproc-per-node 1 --node-rank 1 \
  --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29915 --rdzv-id job15 --max-restarts 0 \
  /work/blind/r8/gen/015_node_lost.py > $R/gpu-a02.log 2>&1" &
B=$!
sleep 22
# power loss on gpu-a02: kill its whole process group at once
desc() { for c in $(pgrep -P $1); do echo $c; desc $c; done; }
kill -9 $B $(desc $B)
wait $A; echo "rcA=$?" > /work/blind/r8/meta/015.rc
wait $B; echo "rcB=$?" >> /work/blind/r8/meta/015.rc
