#!/bin/bash
R=/work/blind/r6/runs/016_hub_download_rank0; rm -rf $R; mkdir -p $R
export OMP_NUM_THREADS=1 HF_HOME=$R/hfcache
cd $R
timeout 85 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 29716 --tee 3 \
  /work/blind/r6/gen/016_hub_download_rank0.py > $R/console.log 2>&1
echo "exit=$?" > $R/exit_code
rm -rf $R/hfcache
