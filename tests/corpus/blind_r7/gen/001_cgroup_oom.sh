#!/bin/bash
# Runs a 4-rank torchrun job inside a cgroup-v1 memory limit (as a container/cgroup would)
R=/work/blind/r7/runs/001_cgroup_oom; rm -rf $R; mkdir -p $R
SELF=$(awk -F: '$2=="memory"{print $3}' /proc/self/cgroup)
CG=/sys/fs/cgroup/memory$SELF/r7_job001
mkdir -p $CG
echo $((1400*1024*1024)) > $CG/memory.limit_in_bytes
cd $R
export OMP_NUM_THREADS=1 PROBE_RANK=2
( echo $BASHPID > $CG/cgroup.procs; exec timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 29801 \
   --log-dir $R/torchelastic --tee 3 /work/blind/r7/gen/001_cgroup_oom.py ) > $R/console.log 2>&1
echo "exit=$?"
cat $CG/memory.failcnt; grep -E "oom_kill|under_oom" $CG/memory.oom_control
sleep 1; rmdir $CG
