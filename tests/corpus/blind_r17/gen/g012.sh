#!/bin/bash
# 012: torchrun --tee 3 (console only), 4 ranks. The summary-writing rank (world-1 = rank 3) calls dist.barrier()
# inside `if rank == writer:` -> only rank 3 enters the barrier; ranks 0-2 go on to the next step's collectives.
R=/work/blind/r17/runs/012_barrier_inside_rank_branch; rm -rf $R; mkdir -p $R; cd $R
mkdir -p /work/blind/r17/mnt/012s
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 SUMMARY_DIR=/work/blind/r17/mnt/012s
/work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 22121 --tee 3 /work/blind/r17/gen/summary_train.py 2>&1 | tee run.log >/dev/null
rm -rf /work/blind/r17/mnt/012s
