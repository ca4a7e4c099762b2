#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 011_2node_ckpt_readonly
python $R/gen/mkdata.py data 4 --n 2000
mkdir -p $WD/ckpt; mount -t tmpfs -o size=64m tmpfs $WD/ckpt; mount -o remount,ro $WD/ckpt
ARGS="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31110 --rdzv-id job011 --local-addr 127.0.0.1"
TA="$T --data data --steps 120 --log-every 10 --ckpt-dir $WD/ckpt --ckpt-every 30 --fault ckpt_ro"
onnode h100-pod3-n07 torchrun $ARGS $TA > $RUN/h100-pod3-n07.log 2>&1 &
sleep 2
onnode h100-pod3-n08 torchrun $ARGS $TA > $RUN/h100-pod3-n08.log 2>&1
wait
umount $WD/ckpt
