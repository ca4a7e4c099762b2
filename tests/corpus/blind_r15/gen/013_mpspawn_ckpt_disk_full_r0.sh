#!/bin/bash
# Rank 0 writes a checkpoint every 10 steps (~0.6 MB each) to a 2 MB tmpfs scratch volume and
# never deletes old ones: the third/fourth save hits ENOSPC. mp.spawn, 2 processes.
. /work/blind/r15/gen/env.sh
R=013_mpspawn_ckpt_disk_full_r0; D=$DATA/ds_013; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 2 --chunks 3
M=/work/blind/r15/mnt/ckpt013; mkdir -p $M; mount -t tmpfs -o size=2m tmpfs $M
cd $RUNS/$R
export MASTER_PORT=21113 NPROCS=2
timeout 120 $PY $GEN/spawn_main.py --data-dir $D --epochs 2 --hidden 256 --ckpt-dir $M --ckpt-every 10 \
  --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
df -h $M; ls -la $M; umount $M
