#!/bin/bash
R=/work/blind/r8/runs/009_ckpt_permission_denied; rm -rf $R; mkdir -p $R
CK=/work/blind/r8/meta/009_ckpt; rm -rf $CK; mkdir -p $CK/rank_01
chown 1001:1001 $CK/rank_01; chmod 755 $CK/rank_01
cd $R; export OMP_NUM_THREADS=1 CKPT_ROOT=$CK
timeout 90 setpriv --bounding-set=-dac_override,-dac_read_search,-fowner -- \
  /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --master-port 29909 \
  /work/blind/r8/gen/009_ckpt_permission_denied.py > $R/console.txt 2>&1
echo "rc=$?" > /work/blind/r8/meta/009.rc
