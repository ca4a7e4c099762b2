#!/bin/bash
# the whole job runs in a memory cgroup with a 2.2 GB limit, like a batch scheduler's job cgroup
R=/work/blind/r6/runs/002_oom_killed_console_only; rm -rf $R; mkdir -p $R
CG=/sys/fs/cgroup/memory/blind_r6_job002
mkdir -p $CG; echo 2200M > $CG/memory.limit_in_bytes
export OMP_NUM_THREADS=1
cd $R
( echo $BASHPID > $CG/cgroup.procs; exec timeout 85 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 29702 \
  /work/blind/r6/gen/002_oom_killed_console_only.py ) > $R/console.log 2>&1
echo "exit=$?" > $R/exit_code
dmesg | grep -E "blind_r6_job002|Killed process" | tail -5 > $R/dmesg_ground_truth.txt
sleep 1; rmdir $CG
