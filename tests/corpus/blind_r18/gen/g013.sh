#!/bin/bash
# plain bash launcher with a per-process address-space cap (ulimit -v 6 GB, like a site limit on a shared host),
# one log per rank. Dynamic padding pads each batch to its longest sample; rank 1's shard has one unsplit
# 48M-token document at step 23, so the int64 pad buffer needs 16*48M*8 = 6.1 GB: DefaultCPUAllocator
# "can't allocate memory" on rank 1; the others lose their peer in the next all_reduce.
source /work/blind/r18/gen/common.sh
newrun 013_dynamic_pad_alloc
mkdir -p logs
export MASTER_ADDR=127.0.0.1 MASTER_PORT=23013 WORLD_SIZE=4
(
ulimit -v 6000000
pids=()
for r in 0 1 2 3; do
  RANK=$r LOCAL_RANK=$r $PY $GEN/p013_dynpad.py > logs/worker-$r.out 2>&1 &
  pids+=($!)
done
for i in 0 1 2 3; do wait ${pids[$i]}; rc=$?; echo "$(date "+%F %T") worker $i exited with status $rc"; done
) > launcher.log 2>&1
cat launcher.log
