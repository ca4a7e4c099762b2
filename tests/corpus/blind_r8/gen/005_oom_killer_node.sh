#!/bin/bash
R=/work/blind/r8/runs/005_oom_killer_node; rm -rf $R; mkdir -p $R
C=/sys/fs/cgroup/memory/process_api/6650224ab7bb76cb4aff96bf86e928c1/r8oom
mkdir -p $C; echo $((1300*1024*1024)) > $C/memory.limit_in_bytes
export OMP_NUM_THREADS=1
MARK=$(awk '{print $1}' /proc/uptime)
cd $R
NODE_TAG=A timeout 90 /work/blind/venv/bin/torchrun --nnodes 2 --nproc-per-node 2 --node-rank 0 \
  --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29905 --rdzv-id job5 --max-restarts 0 \
  /work/blind/r8/gen/005_oom_killer_node.py > $R/node-a.log 2>&1 &
A=$!
sleep 2
( echo $BASHPID > $C/cgroup.procs; export NODE_TAG=B; exec timeout 90 /work/blind/venv/bin/torchrun --nnodes 2 --nproc-per-node 2 --node-rank 1 \
  --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29905 --rdzv-id job5 --max-restarts 0 \
  /work/blind/r8/gen/005_oom_killer_node.py > $R/node-b.log 2>&1 ) &
B=$!
wait $A; echo "rcA=$?" > /work/blind/r8/meta/005.rc
wait $B; echo "rcB=$?" >> /work/blind/r8/meta/005.rc
# kernel log of node B since the job started (what an admin would attach: dmesg -T)
dmesg | awk -v m=$MARK '{t=$0; sub(/^\[ */,"",t); sub(/\].*/,"",t); if (t+0 >= m) print}' > $R/node-b-dmesg.txt
