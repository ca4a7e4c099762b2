#!/bin/bash
# healthy-running torchrun job receives SIGTERM (spot instance reclaim notice -> node agent terminates the launcher)
source /work/blind/r20/gen/common.sh
D=$R/023_spot_node; rm -rf $D; mkdir -p $D; cd $W
NSTEPS=300 FMT=tail HANDLE_TERM=1 LOG_EVERY=5 \
 $TR --nproc-per-node 3 --master-port 25033 --tee 3 $G/train.py > $D/train_console.log 2>&1 &
T=$!
sleep 14
kill -TERM $T
wait $T; echo rc=$?
