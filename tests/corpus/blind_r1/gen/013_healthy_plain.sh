#!/usr/bin/env bash
# Healthy run: torchrun 4 ranks, plain prints, completes.
set -u
NAME=013_healthy_plain
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
export PYTHONUNBUFFERED=1
timeout 180 $PY/torchrun --nproc-per-node 4 --master-port 29611 train.py --steps 300 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
