#!/bin/bash
# HEALTHY. srun -l, 4 tasks; rank 2 hits two unparsable metadata records, prints the traceback, drops the
# sample and continues; also the GradScaler warning. Finishes normally.
NAME=032_healthy_bad_sample_skipped; source /work/blind/r16/gen/common.sh
MASTER_PORT=21032 BAD_SAMPLE=12 BAD_RANK=2 STEPS=40 \
  srun -l -n 4 -J sft-clean $GEN/slurm_env.sh $PY $GEN/healthy_train.py > srun.log 2>&1
echo "srun exit code $?" >> srun.log
