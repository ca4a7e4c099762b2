#!/bin/bash
# 005: plain torchrun (no log dir), 4 ranks, output captured from the terminal. From step 3 rank 3's data has no
# aux targets so the aux head gets no gradient on rank 3 only -> DDP reducer never finishes on rank 3.
R=/work/blind/r17/runs/005_ddp_unused_param_one_shard; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen NO_AUX_SHARD=3 PG_TIMEOUT=15 LOGSTYLE=bare
/work/blind/venv/bin/torchrun --master-port 22051 --nproc-per-node 4 /work/blind/r17/gen/aux_train.py > torchrun_output.txt 2>&1
echo "exit=$?"
