#!/bin/bash
# eval metric all_reduce: rank 0 builds a 5x5 confusion matrix, others 4x4 (DETAIL debug segfaulted at init on this build, so plain); srun --label
source /work/blind/r20/gen/common.sh
D=$R/018_eval_metrics; rm -rf $D; mkdir -p $D; cd $W
export MASTER_ADDR=127.0.0.1 MASTER_PORT=25028 FAULT=collmismatch FAULT_RANK=0 FAULT_STEP=15 NSTEPS=30 FMT=plain PG_TIMEOUT=30
srun -n3 --overcommit --label -J evalmetrics $PY $G/train.py > $D/out.log 2>&1
echo rc=$?
