#!/bin/bash
# 001: torchrun, 4 ranks, --log-dir + --tee 3. Rank 2 (alone) is moved into a
# cgroup-v1 memory cgroup limited to 300 MB at step 140 and then leaks tensors
# -> the kernel OOM killer SIGKILLs it. Others then fail / get torn down.
set -u
R=/work/blind/r23; RUN=$R/runs/001_oom_rank2; rm -rf $RUN; mkdir -p $RUN
CG=/sys/fs/cgroup/memory/r23_oom001; rmdir $CG 2>/dev/null; mkdir -p $CG
echo $((300*1024*1024)) > $CG/memory.limit_in_bytes
echo $((300*1024*1024)) > $CG/memory.memsw.limit_in_bytes 2>/dev/null || true
cd $R/work
export OOM_CGROUP=$CG CHAOS=oom_cgroup@2@140
timeout 200 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 4 --master-port 28011 \
  --log-dir $RUN/torchelastic_logs --tee 3 --max-restarts 0 \
  $R/gen/train_lm.py --data-dir data/base --steps 300 --eval-every 100 --ckpt-every 100 \
  --ckpt-dir /tmp/r23_ck001 --timeout 30 > $RUN/launcher_console.log 2>&1
echo "rc=$?"
rmdir $CG 2>/dev/null || true
