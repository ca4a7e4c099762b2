#!/bin/bash
# 001: ranks 1 and 2 exchange via send/recv; launch config wrongly lists rank 1 (which must send first) as recv-first,
# so from step 0 both 1 and 2 block in recv -> deadlock; ranks 0,3 block in all_reduce -> gloo timeouts.
R=/work/blind/r17/runs/001_p2p_exchange_deadlock; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen RECV_FIRST_RANKS=1,2 PG_TIMEOUT=15  # should be RECV_FIRST_RANKS=2: rank 1 misconfigured
/work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 22011 --log-dir $R/torchrun_logs --tee 3 \
  /work/blind/r17/gen/pipeline_train.py > $R/console.log 2>&1
echo "exit=$?"
