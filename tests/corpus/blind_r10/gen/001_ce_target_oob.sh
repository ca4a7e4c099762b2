#!/bin/bash
R=/work/blind/r10/runs/001_ce_target_oob; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint localhost:30101 \
  --log-dir $R/logs --tee 3 /work/blind/r10/gen/001_ce_target_oob.py > $R/console.log 2>&1
echo "rc=$?"
rm -f $R/labels.tsv
