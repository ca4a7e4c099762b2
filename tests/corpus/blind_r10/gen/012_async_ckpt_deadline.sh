#!/bin/bash
# the checkpoint mount's server stops answering after the first save: simulated by making later
# checkpoint paths block on open (named pipes with no reader), as a hung NFS server would
R=/work/blind/r10/runs/012_async_ckpt_deadline; rm -rf $R; mkdir -p $R; cd $R
S=/tmp/r10_012_ckpt; rm -rf $S; mkdir -p $S
for s in 80 120 160 200 240 280 300; do mkfifo $S/step_$(printf %06d $s).pt; done
export OMP_NUM_THREADS=1 CKPT_DIR=$S
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --log-dir $R/logs --tee 3 \
  /work/blind/r10/gen/012_async_ckpt_deadline.py > $R/console.log 2>&1
echo "rc=$?"
rm -rf $S
