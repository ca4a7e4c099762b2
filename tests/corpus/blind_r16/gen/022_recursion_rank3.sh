#!/bin/bash
# srun -n 4 -o per-task files (-e to per-task err); rank 3 flattens a deeply nested sample recursively -> RecursionError
NAME=022_recursion_rank3; source /work/blind/r16/gen/common.sh
MASTER_PORT=21022 FAULT=recursion FAULT_RANK=3 FAULT_STEP=11 STEPS=50 LOGFMT=plain \
  srun -n 4 -J nested-tree -o task-%t.out -e task-%t.err $GEN/slurm_env.sh $PY $TRAIN 2> srun_stderr.txt
