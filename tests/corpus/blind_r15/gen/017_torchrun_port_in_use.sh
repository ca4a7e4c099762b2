#!/bin/bash
# A leftover process from a previous job (here a python http.server) still holds port 21117.
# torchrun (static rendezvous, --master-port 21117) cannot bind its TCPStore: EADDRINUSE.
. /work/blind/r15/gen/env.sh
R=017_torchrun_port_in_use; D=$DATA/ds_017; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 2 --chunks 2
$PY -m http.server 21117 --bind 0.0.0.0 > /dev/null 2>&1 &
SQ=$!; sleep 1
cd $RUNS/$R
timeout 120 $TORCHRUN --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 21117 \
  $GEN/train.py --data-dir $D --log-every 5 > console.log 2>&1
echo "rc=$?"
kill $SQ
