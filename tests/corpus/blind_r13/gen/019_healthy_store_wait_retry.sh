#!/bin/bash
R=/work/blind/r13/runs/019_healthy_store_wait_retry
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1 TORCH_DISTRIBUTED_DEBUG=INFO
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 33019 --log-dir $R/logs --tee 3 \
  /work/blind/r13/gen/019_healthy_store_wait_retry.py > $R/console.txt 2>&1
echo "torchrun exit $?" >> $R/console.txt
