#!/bin/bash
R=/work/blind/r12/runs/011_ddp_unused_aux_head
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 32111 --log-dir $R/elastic --redirects 3 --tee 2 \
  /work/blind/r12/gen/011_ddp_unused_aux_head.py > $R/torchrun.log 2>&1
echo "exit=$?" >> $R/torchrun.log
