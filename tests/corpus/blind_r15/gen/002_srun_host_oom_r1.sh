#!/bin/bash
# All ranks keep every batch's embeddings in an unbounded kNN-monitor bank: a leak.
# Rank 1 runs inside a 700 MB memory cgroup (smaller node), so the kernel OOM killer kills it
# first; srun --kill-on-bad-exit then tears the step down.
. /work/blind/r15/gen/env.sh
R=002_srun_host_oom_r1; D=$DATA/ds_002; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3 --rows 2048
cd $RUNS/$R
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21102 LIMIT_RANK=1 LIMIT=700M CGNAME=blind_r15_002
timeout 300 srun -l -n 4 --kill-on-bad-exit=1 $GEN/mem_limit_wrap.sh $PY $GEN/train.py \
  --data-dir $D --epochs 50 --batch-size 512 --hidden 1024 --emb-bank --log-every 10 --pg-timeout 30 > console.log 2>&1
echo "rc=$?"
rmdir /sys/fs/cgroup/memory/process_api/553092435b34224c35e2aefdffd73d03/blind_r15_002
