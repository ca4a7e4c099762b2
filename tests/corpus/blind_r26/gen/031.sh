#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 031_healthy_2node_print
python $R/gen/mkdata.py data 4 --n 2000
C="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31310 --rdzv-id job031 --local-addr 127.0.0.1"
TA="$T --data data --steps 150 --log-every 25 --log-style print"
onnode p5-train-003 torchrun $C $TA > $RUN/p5-train-003.log 2>&1 &
sleep 2
onnode p5-train-004 torchrun $C $TA > $RUN/p5-train-004.log 2>&1
wait
