#!/bin/bash
# torchrun --log-dir, 4 workers; rank 2 joins a 300M memory cgroup and builds a huge "eval cache" -> OOM-killed
NAME=001_cgroup_oom_rank2; source /work/blind/r16/gen/common.sh
CG=/sys/fs/cgroup/memory/process_api/de1a696211c76aa164e51378474be4ab/blind_r16_001
rmdir $CG 2>/dev/null; mkdir -p $CG; echo 300M > $CG/memory.limit_in_bytes
FAULT=oom FAULT_RANK=2 FAULT_STEP=12 CGROUP=$CG STEPS=60 \
  $TORCHRUN --nproc-per-node 4 --master-port 21001 --log-dir "$R/torchrun_logs" --redirects 3 $TRAIN > console.log 2>&1
echo "exit=$?" >&2
bash $GEN/dmesg_oom.sh blind_r16_001 > dmesg_excerpt.txt; rmdir $CG
