#!/bin/bash
R=/work/blind/r8/runs/016_dataloader_worker_oom; rm -rf $R; mkdir -p $R
C=/sys/fs/cgroup/memory/process_api/6650224ab7bb76cb4aff96bf86e928c1/r8oom
mkdir -p $C; echo $((400*1024*1024)) > $C/memory.limit_in_bytes
cd $R; export OMP_NUM_THREADS=1 WORKER_CGROUP=$C
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 --master-port 29916 \
  --log-dir $R/rank_logs --tee 2 /work/blind/r8/gen/016_dataloader_worker_oom.py > $R/console.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/016.rc
