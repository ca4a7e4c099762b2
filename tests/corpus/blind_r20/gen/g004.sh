#!/bin/bash
# shape mismatch on rank 2 (mis-bucketed batch), srun --label
source /work/blind/r20/gen/common.sh
D=$R/004_featurizer_v2; rm -rf $D; mkdir -p $D; cd $W
export MASTER_ADDR=127.0.0.1 MASTER_PORT=25014 FAULT=shape FAULT_RANK=2 FAULT_STEP=12 NSTEPS=30 FMT=norank
srun -n3 --overcommit --label -J featurizer $PY $G/train.py > $D/srun_output.txt 2>&1
echo rc=$?
