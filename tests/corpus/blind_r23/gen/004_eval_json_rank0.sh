#!/bin/bash
# 004: mp.spawn, 3 ranks, only rank 0 logs INFO. At the step-150 eval rank 0
# writes the eval report and json.dumps() fails on a numpy float32
# (TypeError) while ranks 1,2 are waiting in dist.barrier().
set -u
R=/work/blind/r23; RUN=$R/runs/004_eval_json_rank0; rm -rf $RUN; mkdir -p $RUN
cd $R/work; rm -f /tmp/r23_eval004.jsonl
CHAOS=np32@0@150 timeout 200 /work/blind/venv/bin/python $R/gen/spawn_launch.py 3 28041 -- \
  --data-dir data/base --steps 400 --eval-every 50 --ckpt-every 0 --timeout 40 --quiet-nonzero \
  --eval-report /tmp/r23_eval004.jsonl --log-style hydra > $RUN/train_output.txt 2>&1
echo rc=$?
