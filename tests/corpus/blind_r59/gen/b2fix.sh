#!/bin/bash
source /work/blind/r59/gen/common.sh
CG=/sys/fs/cgroup/memory/process_api/904cd2448ba670791e4c74ccfe835116/b59oom
mkdir -p /tmp/r59ro; mount -t tmpfs -o ro tmpfs /tmp/r59ro
mk 016; SAVE_CKPT=1 CKPT_DIR=/tmp/r59ro/ckpt_run7 STEPS=5 LOGFMT=logging $TR --nproc-per-node 4 --master-port 29736 $W > console.log 2>&1
umount /tmp/r59ro
mkdir -p /tmp/r59full; mount -t tmpfs -o size=256k tmpfs /tmp/r59full
mk 017; SCEN=ckpt_write CKPT_DIR=/tmp/r59full CKPT_PAD=200000 FAIL_RANK=2 FAIL_STEP=4 LOGFMT=prefix $TR --nproc-per-node 4 --master-port 29737 $W > console.log 2>&1
umount /tmp/r59full
mk 023; SCEN=assert FAIL_RANK=1 FAIL_STEP=3 LOGFMT=prefix2 $PY /work/blind/r59/gen/spawn.py 4 29743 > console.log 2>&1
mk 024; SCEN=oom_cgroup OOM_CGROUP=$CG FAIL_RANK=2 FAIL_STEP=3 LOGFMT=logging_norank $PY /work/blind/r59/gen/spawn.py 3 29744 > console.log 2>&1
