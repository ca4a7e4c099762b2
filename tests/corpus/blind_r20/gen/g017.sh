#!/bin/bash
# rank 1's shard has fewer batches: it finishes its loop and exits 0 while the others wait in allreduce; bash loop
source /work/blind/r20/gen/common.sh
D=$R/017_uneven_shards; rm -rf $D; mkdir -p $D; cd $W
export MASTER_ADDR=127.0.0.1 MASTER_PORT=25027 WORLD_SIZE=3 FAULT=short FAULT_RANK=1 FAULT_STEP=21 NSTEPS=40 FMT=tail PG_TIMEOUT=30
for r in 0 1 2; do RANK=$r LOCAL_RANK=$r $PY $G/train.py > $D/vm.rank$r.log 2>&1 & done
for j in $(jobs -p); do wait $j; echo "pid $j exit $?" >> $D/launch_status.txt; done
