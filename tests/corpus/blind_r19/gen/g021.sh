#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=021_sample_file_leak; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN/samples; rm -rf $OUT/*
cd $W/$RUN
for i in $(seq 0 499); do [ -f samples/s$i.npy ] || head -c 512 /dev/urandom > samples/s$i.npy; done
ulimit -n 512
$TORCHRUN --nnodes 1 --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 24021 --tee 3 \
  $G/train.py --steps 60 --fail emfile --fail-rank 1 --timeout 40 --run-id $RUN --fmt hf > $OUT/console.log 2>&1
echo "exit=$?"
