#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 019_2node_rdzv_wrong_endpoint
python $R/gen/mkdata.py data 4 --n 1000
C="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-id job019 --rdzv-conf join_timeout=90 --local-addr 127.0.0.1"
onnode a3-mega-0041 torchrun $C --rdzv-endpoint 127.0.0.1:31190 $T --data data --steps 100 > $RUN/a3-mega-0041.log 2>&1 &
sleep 2
# node 2 was launched from a stale env file with the wrong rendezvous port
onnode a3-mega-0042 torchrun $C --rdzv-endpoint 127.0.0.1:31191 $T --data data --steps 100 > $RUN/a3-mega-0042.log 2>&1
wait
