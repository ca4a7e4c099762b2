#!/bin/bash
# mp.spawn, 4 ranks, custom "| key value |" log lines with the rank at the end. From step 25 rank 2's shard
# comes from a new exporter that writes byte counts instead of KiB (inputs x1024): rank 2's loss jumps to
# hundreds, its loss-spike guard raises "training diverged"; mp.spawn terminates the rest.
source /work/blind/r18/gen/common.sh
newrun 016_exporter_unit_loss_spike
export MASTER_PORT=23016
$PY $GEN/p016_spike.py > train_stdout.log 2>&1
echo "rc=$?"
