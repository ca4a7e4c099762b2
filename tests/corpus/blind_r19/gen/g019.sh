#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=019_stale_store_port; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
# leftover store from an earlier job still owns the port
$PY -c "import torch.distributed as d, time; s=d.TCPStore('0.0.0.0', 24019, 1, True); time.sleep(120)" &
SQ=$!
sleep 3
$TORCHRUN --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 24019 --tee 3 \
  $G/train.py --steps 60 --timeout 40 --run-id $RUN --fmt plain > $OUT/console.log 2>&1
echo "exit=$?"
kill $SQ
