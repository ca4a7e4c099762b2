#!/bin/bash
# rank 2 blocks silently opening a FIFO whose writer never comes; others hit the gloo timeout. torchrun --tee 3
source /work/blind/r20/gen/common.sh
D=$R/015_pipe_ingest; rm -rf $D; mkdir -p $D; cd $W
rm -f $W/fifo015; mkfifo $W/fifo015
FAULT=fifo FAULT_RANK=2 FAULT_STEP=14 FIFO_PATH=$W/fifo015 NSTEPS=40 FMT=norank PG_TIMEOUT=20 \
 $TR --nproc-per-node 3 --master-port 25025 --tee 3 $G/train.py > $D/console.log 2>&1
echo rc=$?
