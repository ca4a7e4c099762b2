#!/bin/bash
# 025: torchrun 3 ranks, --log-dir --redirects 3 (per-rank files + launcher
# stderr), rank 0 runs a divergence guard. The LR schedule config has a bad
# "restart" at step 700 to a constant 0.6 -> the loss (~3.1) shoots to ~9 and
# stays; after 30 bad steps rank 0's guard raises RuntimeError. The weights are
# shared: the divergence is global (no single initiating rank).
set -u
R=/work/blind/r23; RUN=$R/runs/025_divergence; rm -rf $RUN; mkdir -p $RUN
cd $R/work
timeout 250 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --log-dir $RUN/logs --redirects 3 \
  $R/gen/train_lm.py --data-dir data/base --steps 1500 --log-every 20 --eval-every 250 --ckpt-every 500 \
  --ckpt-dir /tmp/r23_ck025 --lr-restart-step 700 --lr-restart-peak 0.6 --diverge-guard 1.5 --timeout 30 \
  > $RUN/launcher.out 2> $RUN/launcher.err
echo rc=$?
