#!/bin/bash
# healthy torchrun --tee 3 with harmless warnings
source /work/blind/r20/gen/common.sh
D=$R/003_baseline_rerun; rm -rf $D; mkdir -p $D; cd $W
WARN=1 NSTEPS=40 FMT=tail \
 $TR --nproc-per-node 2 --master-port 25013 --tee 3 $G/train.py > $D/console.log 2>&1
echo rc=$?
