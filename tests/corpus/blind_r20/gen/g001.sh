#!/bin/bash
# nan loss on rank 2 (inf in a batch), torchrun --tee 3
source /work/blind/r20/gen/common.sh
D=$R/001_night_pretrain_a; rm -rf $D; mkdir -p $D; cd $W
FAULT=nan FAULT_RANK=2 FAULT_STEP=17 NSTEPS=40 FMT=plain \
 $TR --nproc-per-node 3 --master-port 25011 --tee 3 $G/train.py > $D/console.log 2>&1
echo rc=$?
