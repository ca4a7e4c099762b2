#!/bin/bash
# torchrun --log-dir --tee 3 --local-ranks-filter 0 (console shows rank 0 only; files hold every rank).
# Rank 0 stages the checkpoint on /dev/shm (tmpfs) and "atomically" publishes it with os.rename() into the
# checkpoint dir on the disk filesystem: OSError [Errno 18] Invalid cross-device link at the first save
# (step 15). Ranks 1-3 are in the post-save barrier and lose their peer.
source /work/blind/r18/gen/common.sh
newrun 019_ckpt_publish_exdev
export CKPT_STAGING=/dev/shm/r18-ckpt-staging CKPT_DIR=$WORK/checkpoints
$TORCHRUN --nproc-per-node 4 --master-port 23019 --log-dir run_logs --tee 3 --local-ranks-filter 0 $GEN/p019_ckpt_stage.py > console.log 2>&1
echo "rc=$?"
rm -rf /dev/shm/r18-ckpt-staging
