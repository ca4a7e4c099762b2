#!/bin/bash
# HEALTHY. plain bash loop, one log per rank (logs/rank_<r>.txt), all ranks exit 0.
# At step 20 rank 0 uploads a checkpoint to an object store whose load balancer resets the first 2 connections:
# two WARNINGs "ConnectionResetError(104, 'Connection reset by peer'); retrying", then the upload succeeds and
# training finishes. The other ranks wait in a barrier for ~2 s (pg timeout 15 s) and carry on.
source /work/blind/r18/gen/common.sh
newrun 031_healthy_upload_retry
mkdir -p logs
$PY $GEN/flaky_store.py 23131 2 & STORE=$!
sleep 1
export STORE_URL=http://127.0.0.1:23131/ckpt-bucket MASTER_ADDR=127.0.0.1 MASTER_PORT=23031 WORLD_SIZE=4
pids=()
for r in 0 1 2 3; do RANK=$r LOCAL_RANK=$r $PY $GEN/p031_upload.py > logs/rank_$r.txt 2>&1 & pids+=($!); done
for i in 0 1 2 3; do wait ${pids[$i]}; echo "rank $i exit $?"; done > launcher.txt; cat launcher.txt
kill $STORE
