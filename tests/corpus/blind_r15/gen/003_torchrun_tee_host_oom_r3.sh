#!/bin/bash
# The job runs under a 2.5 GB memory limit (container). Rank 3's record file has a corrupt
# length header (2^31 floats) at record 1500; the decoder allocates an 8 GB buffer in the
# rank-3 main process (num_workers=0) and the kernel memcg OOM killer SIGKILLs rank 3.
. /work/blind/r15/gen/env.sh
R=003_torchrun_tee_host_oom_r3; D=$DATA/ds_003; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_records.py $D --ranks 4 --bad 3:1500:2147483648
cd $RUNS/$R
export LIMIT=2500M CGNAME=blind_r15_003
T0=$(date '+%Y-%m-%d %H:%M:%S')
timeout 200 $GEN/mem_limit_run.sh $TORCHRUN --nproc-per-node 4 --master-port 21103 --tee 3 --log-dir logs \
  $GEN/train.py --data-dir $D --records --num-workers 0 --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
rmdir /sys/fs/cgroup/memory/process_api/553092435b34224c35e2aefdffd73d03/blind_r15_003
