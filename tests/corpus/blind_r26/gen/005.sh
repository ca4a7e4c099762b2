#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 005_2node_uneven_exit0
python $R/gen/mkdata.py data 4 --n 2000 --short 2:490
ARGS="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31050 --rdzv-id job005 --local-addr 127.0.0.1"
TA="$T --data data --steps 100 --log-every 10 --uneven --timeout 120"
mkdir -p $RUN/trn-a100-017; onnode trn-a100-017 torchrun $ARGS --log-dir $RUN/trn-a100-017/elastic_logs --tee 3 $TA > $RUN/trn-a100-017/console.log 2>&1 &
sleep 2
mkdir -p $RUN/trn-a100-018
onnode trn-a100-018 torchrun $ARGS --log-dir $RUN/trn-a100-018/elastic_logs --tee 3 $TA > $RUN/trn-a100-018/console.log 2>&1
wait
