#!/bin/bash
# Job under a 3 GB memory limit (container). DataLoader with 2 workers per rank. Rank 0's record
# file has a corrupt length header (2^30 floats) at record 700; the worker decoding it allocates
# a 4 GB buffer and is killed by the kernel memcg OOM killer -> "DataLoader worker ... killed".
. /work/blind/r15/gen/env.sh
R=022_torchrun_dataloader_worker_oom_r0; D=$DATA/ds_022; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_records.py $D --ranks 4 --bad 0:700:1073741824
cd $RUNS/$R
export LIMIT=3000M CGNAME=blind_r15_022
timeout 200 $GEN/mem_limit_run.sh $TORCHRUN --nproc-per-node 4 --master-port 21122 \
  $GEN/train.py --data-dir $D --records --num-workers 2 --log-every 5 --pg-timeout 30 > console.log 2>&1
echo "rc=$?"
rmdir /sys/fs/cgroup/memory/process_api/553092435b34224c35e2aefdffd73d03/blind_r15_022
