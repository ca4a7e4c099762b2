#!/bin/bash
# eval rank (0) imports a metric package missing from the image; torchrun --tee 3 --local-ranks-filter 1 --log-dir
source /work/blind/r20/gen/common.sh
D=$R/013_eval_hook; rm -rf $D; mkdir -p $D; cd $W
FAULT=import FAULT_RANK=0 NSTEPS=30 FMT=plain \
 $TR --nproc-per-node 3 --master-port 25023 --tee 3 --local-ranks-filter 1 --log-dir $D/run_logs $G/train.py > $D/stdout.txt 2>&1
echo rc=$?
