#!/bin/bash
# 028: HEALTHY. mp.spawn 2 ranks, resumes from a step-400 checkpoint (copied
# from run 022's checkpoint dir into work/ckpt_seed) and trains 300 more steps
# with eval + checkpoints; only rank 0 logs INFO. Completes normally.
set -u
R=/work/blind/r23; RUN=$R/runs/028_healthy_spawn_resume; rm -rf $RUN; mkdir -p $RUN
cd $R/work
timeout 200 /work/blind/venv/bin/python $R/gen/spawn_launch.py 2 28281 -- \
  --data-dir data/base --steps 300 --eval-every 100 --ckpt-every 150 --ckpt-dir /tmp/r23_ck028 \
  --resume $R/work/ckpt_seed/lm-step400.pt --quiet-nonzero --timeout 30 --log-style accel > $RUN/stdout_stderr.txt 2>&1
echo rc=$?
