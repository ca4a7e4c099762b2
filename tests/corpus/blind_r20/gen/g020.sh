#!/bin/bash
# DataLoader worker of rank 1 segfaults (native null deref in a sample decode); mp.spawn
source /work/blind/r20/gen/common.sh
D=$R/020_decoder_workers; rm -rf $D; mkdir -p $D; cd $W
MASTER_PORT=25031 FAULT=segv FAULT_RANK=1 FAULT_STEP=13 NSTEPS=30 FMT=json PG_TIMEOUT=30 \
 $PY $G/spawn_main.py 2 > $D/run.log 2>&1
echo rc=$?
