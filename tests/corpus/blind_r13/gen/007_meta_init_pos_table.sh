#!/bin/bash
R=/work/blind/r13/runs/007_meta_init_pos_table
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 33007 --log-dir $R/torchelastic --redirects 3 \
  /work/blind/r13/gen/007_meta_init_pos_table.py > $R/launcher.log 2>&1
echo "torchrun exited with $?" >> $R/launcher.log
