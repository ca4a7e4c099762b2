#!/bin/bash
# srun -l, 4 tasks; rank 2 gets a batch with an inf feature -> local loss is nan -> user check raises FloatingPointError
NAME=006_nan_input_rank2; source /work/blind/r16/gen/common.sh
MASTER_PORT=21006 FAULT=nan FAULT_RANK=2 FAULT_STEP=17 CHECK_FINITE=1 STEPS=60 LOGFMT=tqdm \
  srun -l -n 4 -J nanrun $GEN/slurm_env.sh $PY $TRAIN > srun_console.log 2>&1
