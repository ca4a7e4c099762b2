#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=015_local_scratch_small; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
for r in 0 1 2 3; do mkdir -p $W/$RUN/scratch$r; umount $W/$RUN/scratch$r 2>/dev/null; rm -rf $W/$RUN/scratch$r/*; done
# node-local scratch of rank 0's host is a tiny volume
mount -t tmpfs -o size=2m tmpfs $W/$RUN/scratch0
bash $G/launch_loop.sh 4 24015 $OUT "$PY $G/train.py --steps 60 --ckpt-every 10 --ckpt-dir $W/$RUN/scratch{rank}/step{step} --timeout 40 --run-id $RUN --fmt weird" > $OUT/launch.log 2>&1
umount $W/$RUN/scratch0
