#!/bin/bash
# HEALTHY. mp.spawn 2 processes. The primary checkpoint volume is read-only; rank 0's saves fail
# with "Read-only file system", the trainer logs the traceback and writes to the fallback
# directory instead (every 10 steps). Training completes, exit 0.
. /work/blind/r15/gen/env.sh
R=028_mpspawn_healthy_ckpt_fallback; D=$DATA/ds_028; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 2 --chunks 3
M=/work/blind/r15/mnt/ckpt028; mkdir -p $M; mount -t tmpfs -o size=8m tmpfs $M; mkdir -p $M/run3; mount -o remount,ro $M
cd $RUNS/$R
export MASTER_PORT=21128 NPROCS=2
timeout 120 $PY $GEN/spawn_main.py --data-dir $D --ckpt-dir $M/run3 --ckpt-fallback-dir $D/ckpt_local --ckpt-every 10 \
  --log-style print --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
umount $M
