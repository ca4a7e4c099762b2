#!/bin/bash
# 009: torchrun 3 ranks, --log-dir + --tee 3, entry point wrapped in @record.
# The checkpoint dir is a read-only bind mount (a share re-mounted ro); rank 0
# (the only rank that saves) fails at the step-150 save while ranks 1,2 wait in
# the barrier after the save.
set -u
R=/work/blind/r23; RUN=$R/runs/009_ckpt_readonly; rm -rf $RUN; mkdir -p $RUN
cd $R/work; CK=$R/work/shared/ckpt/lm-009; umount $CK 2>/dev/null; rm -rf $CK; mkdir -p $CK
timeout 200 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --log-dir $RUN/torchrun_logs --tee 3 \
  $R/gen/record_main.py --data-dir data/base --steps 400 --eval-every 50 --ckpt-every 150 \
  --ckpt-dir $CK --timeout 30 > $RUN/console.log 2>&1 &
PID=$!
sleep 6; mount --bind $CK $CK && mount -o remount,bind,ro $CK
wait $PID; echo rc=$?
umount $CK
