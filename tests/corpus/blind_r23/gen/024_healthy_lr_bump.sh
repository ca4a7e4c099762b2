#!/bin/bash
# 024 (HEALTHY as it turned out: the loss rose from 3.12 to 3.44 after the LR jump and
# settled back to ~3.15; the guard never fired and all ranks finished, rc=0).
# Original intent: torchrun 3 ranks, --log-dir --redirects 3 (per-rank files + launcher
# stderr), rank 0 runs a divergence guard. The LR schedule config has a bad
# "restart" at step 700 to a constant 0.08 (27x the peak) -> the loss, ~3.1 by
# then, shoots up and stays up; after 30 bad steps rank 0's guard raises.
# All ranks share the same weights: the divergence is global (no single rank).
set -u
R=/work/blind/r23; RUN=$R/runs/024_healthy_lr_bump; rm -rf $RUN; mkdir -p $RUN
cd $R/work
timeout 250 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --log-dir $RUN/logs --redirects 3 \
  $R/gen/train_lm.py --data-dir data/base --steps 1500 --log-every 20 --eval-every 250 --ckpt-every 500 \
  --ckpt-dir /tmp/r23_ck024 --lr-restart-step 700 --lr-restart-peak 0.08 --diverge-guard 1.5 --timeout 30 \
  > $RUN/launcher.out 2> $RUN/launcher.err
echo rc=$?
