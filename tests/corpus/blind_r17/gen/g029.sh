#!/bin/bash
# 029: torchrun (no log dir, console captured), 4 ranks. Rank 0 keeps 100 MB per step alive; a user-space
# memory watchdog (earlyoom-like, log kept separately, not part of the run dir) SIGKILLs it at 2 GiB RSS.
# torchrun sees rank 0 die with SIGKILL and tears down the rest.
R=/work/blind/r17/runs/029_rank_rss_growth_sigkill; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 ANALYSIS_RANK=0 LOGSTYLE=bare
/work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 22291 /work/blind/r17/gen/leak_train.py > output.log 2>&1 &
TR=$!
/work/blind/r17/gen/memwatch.sh $TR 2097152 2> /work/blind/r17/gen/g029_memwatch.log &
wait $TR; echo "exit=$?"
