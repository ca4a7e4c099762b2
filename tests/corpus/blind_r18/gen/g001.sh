#!/bin/bash
# rank 1's device-telemetry helper never returns at step 20; ranks 0 and 2 time out in the next all_reduce
source /work/blind/r18/gen/common.sh
newrun 001_telemetry_helper_hang
export GPUQ_WEDGED=1 GPUQ_ARM=$WORK/arm
$TORCHRUN --nproc-per-node 3 --master-port 23001 --log-dir logs --tee 3 $GEN/p001_telemetry.py > console.log 2>&1
echo "rc=$?"
kill_helpers
