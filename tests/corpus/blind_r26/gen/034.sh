#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 034_2node_async_ckpt_deadline
python $R/gen/mkdata.py data 4 --n 4000
mkdir -p ckpt; mkfifo ckpt/step_000060.pt   # the object-store FUSE mount stalls on this file
C="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31340 --rdzv-id job034 --local-addr 127.0.0.1"
TA="$T --data data --steps 400 --log-every 10 --step-sleep 0.05 --ckpt-dir ckpt --ckpt-every 30 --async-ckpt --async-pyopen --async-deadline 20 --timeout 40"
onnode trn-h200-a1 torchrun $C $TA > $RUN/trn-h200-a1.log 2>&1 &
sleep 2
onnode trn-h200-a2 torchrun $C $TA > $RUN/trn-h200-a2.log 2>&1
wait
