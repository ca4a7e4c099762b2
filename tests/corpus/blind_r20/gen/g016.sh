#!/bin/bash
# rank 0 builds an in-memory feature cache inside a memory-limited cgroup -> kernel OOM killer SIGKILL; torchrun --log-dir --tee 1
source /work/blind/r20/gen/common.sh
D=$R/016_feature_cache; rm -rf $D; mkdir -p $D; cd $W
CG=/sys/fs/cgroup/memory/blind20oom; mkdir -p $CG; echo 700M > $CG/memory.limit_in_bytes
FAULT=oomkill FAULT_RANK=0 FAULT_STEP=11 CGROUP_TASKS=$CG/tasks NSTEPS=30 FMT=plain PG_TIMEOUT=30 \
 $TR --nproc-per-node 2 --master-port 25026 --log-dir $D/elastic_logs --tee 1 $G/train.py > $D/console.log 2>&1
echo rc=$?
cat $CG/memory.failcnt; cat $CG/memory.oom_control
