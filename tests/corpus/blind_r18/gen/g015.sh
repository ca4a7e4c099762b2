#!/bin/bash
# torchrun --log-dir --redirects 1 (per-rank stdout in files, stderr on the console). Features are log-counts;
# rank 3's batch at step 17 has a record with zero counts -> log(0) = -inf -> the loss is NaN/inf; the job runs
# with torch.autograd.set_detect_anomaly, so rank 3 raises "Function '...Backward0' returned nan values";
# the others lose their peer.
source /work/blind/r18/gen/common.sh
newrun 015_logcount_nan_anomaly
$TORCHRUN --nproc-per-node 4 --master-port 23015 --log-dir tlogs --redirects 1 $GEN/p015_lognorm.py > console.txt 2>&1
echo "rc=$?"
