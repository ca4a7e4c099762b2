#!/bin/bash
# 025: torchrun --tee 3, 3 ranks, default-ish long collective timeout (600 s). Rank 1 deadlocks on a non-reentrant
# lock while writing a metrics snapshot at step 7 (silent); ranks 0 and 2 wait in all_reduce. Only heartbeats
# continue. After ~45 s without progress the user presses Ctrl-C (SIGINT to torchrun).
R=/work/blind/r17/runs/025_metrics_lock_deadlock_ctrl_c; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=600 SNAPSHOT_RANK=1
/work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 22251 --tee 3 /work/blind/r17/gen/hb_train.py > terminal.log 2>&1 &
TR=$!
until grep -q 'writing metrics snapshot' terminal.log 2>/dev/null; do sleep 1; done
sleep 45
kill -INT $TR
wait $TR; echo "torchrun exit $?"
