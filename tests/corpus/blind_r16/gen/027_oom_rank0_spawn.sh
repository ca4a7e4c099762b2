#!/bin/bash
# mp.spawn, 3 ranks; rank 0 (also the TCPStore host) joins a 250M memory cgroup and then grows an in-memory
# eval cache until the kernel OOM-kills it. No dmesg captured (user only pasted the console).
NAME=027_oom_rank0_spawn; source /work/blind/r16/gen/common.sh
CG=/sys/fs/cgroup/memory/process_api/de1a696211c76aa164e51378474be4ab/blind_r16_027
rmdir $CG 2>/dev/null; mkdir -p $CG; echo 250M > $CG/memory.limit_in_bytes
MASTER_PORT=21027 FAULT=oom FAULT_RANK=0 FAULT_STEP=16 CGROUP=$CG STEPS=60 LOGFMT=plain \
  $PY $GEN/spawn_launch.py 3 > console.txt 2>&1
rmdir $CG
