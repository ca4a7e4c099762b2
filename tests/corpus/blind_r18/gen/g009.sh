#!/bin/bash
# torchrun, console only; the script logs JSON lines and its top-level handler puts the traceback in the
# "exc" field. Rank 3's metrics file sits on node-local scratch that is full (here: a symlink to /dev/full),
# so its flush at step 10 raises OSError [Errno 28] No space left on device; the others lose their peer.
source /work/blind/r18/gen/common.sh
newrun 009_jsonl_metrics_enospc
mkdir -p $WORK/metrics; ln -s /dev/full $WORK/metrics/metrics.r3.jsonl
export METRICS_DIR=$WORK/metrics
$TORCHRUN --nproc-per-node 4 --master-port 23009 $GEN/p009_jsonmetrics.py > run.jsonl.log 2>&1
echo "rc=$?"
