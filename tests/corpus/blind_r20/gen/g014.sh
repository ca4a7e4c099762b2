#!/bin/bash
# healthy srun --label smoke run, JSON logs, harmless warnings
source /work/blind/r20/gen/common.sh
D=$R/014_srun_smoke; rm -rf $D; mkdir -p $D; cd $W
export MASTER_ADDR=127.0.0.1 MASTER_PORT=25024 NSTEPS=35 FMT=json WARN=1 LOG_EVERY=5
srun -n3 --overcommit --label -J smoke $PY $G/train.py > $D/smoke.log 2>&1
echo rc=$?
