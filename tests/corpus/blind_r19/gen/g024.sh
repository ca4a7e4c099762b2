#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=024_baseline_srun_ckpt; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/* $W/$RUN/*
cd $W/$RUN
export MASTER_ADDR=127.0.0.1 MASTER_PORT=24024 TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO
srun -J base -n 4 -O --label $PY $G/train.py --steps 60 --ckpt-every 20 --ckpt-dir $W/$RUN/ckpt/step{step} --timeout 60 --run-id $RUN --fmt hf \
  > $OUT/srun.log 2>&1
echo "exit=$?"
