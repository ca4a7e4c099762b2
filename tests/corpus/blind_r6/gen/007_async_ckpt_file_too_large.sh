#!/bin/bash
R=/work/blind/r6/runs/007_async_ckpt_file_too_large; rm -rf $R; mkdir -p $R/ckpt
export OMP_NUM_THREADS=1 CKPT_DIR=$R/ckpt
cd $R
( ulimit -f 4096   # 4 MB max file size for everything in the job
  timeout 85 /work/blind/venv/bin/python -m torch.distributed.run --nproc-per-node 4 --master-port 29707 \
     /work/blind/r6/gen/007_async_ckpt_file_too_large.py ) > $R/job.log 2>&1
echo "exit=$?" > $R/exit_code
ls -la $R/ckpt > $R/ckpt_listing_ground_truth.txt; rm -rf $R/ckpt
