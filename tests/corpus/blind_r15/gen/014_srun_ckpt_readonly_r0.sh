#!/bin/bash
# The checkpoint directory is on a volume mounted read-only (stale mount options after a
# maintenance). Rank 0's first checkpoint save at step 10 fails (EROFS). srun -l -n 2.
. /work/blind/r15/gen/env.sh
R=014_srun_ckpt_readonly_r0; D=$DATA/ds_014; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 2 --chunks 3
M=/work/blind/r15/mnt/ckpt014; mkdir -p $M; mount -t tmpfs -o size=8m tmpfs $M; mkdir -p $M/run7; mount -o remount,ro $M
cd $RUNS/$R
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21114
timeout 120 srun -l -n 2 $PY $GEN/train.py --data-dir $D --ckpt-dir $M/run7 --ckpt-every 10 \
  --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
umount $M
