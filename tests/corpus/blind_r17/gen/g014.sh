#!/bin/bash
# 014: bash loop, 3 ranks, per-rank log files. Rank 2 is configured with the storage gateway on 22142, which accepts
# connections but never reads (stuck) -> its background upload of the step-5 checkpoint never completes and at step 11
# the wait with an 8 s deadline raises TimeoutError on rank 2. Others then lose rank 2.
R=/work/blind/r17/runs/014_async_ckpt_upload_deadline; rm -rf $R; mkdir -p $R/logs; cd $R
/work/blind/venv/bin/python /work/blind/r17/gen/gateway.py 22141 22142 & GW=$!
export PYTHONPATH=/work/blind/r17/gen MASTER_ADDR=127.0.0.1 MASTER_PORT=22143 WORLD_SIZE=3 PG_TIMEOUT=20 LOGSTYLE=logging
for r in 0 1 2; do
  gw=127.0.0.1:22141; [ $r = 2 ] && gw=127.0.0.1:22142
  CKPT_GATEWAY=$gw RANK=$r LOCAL_RANK=$r /work/blind/venv/bin/python /work/blind/r17/gen/upload_train.py > logs/rank$r.log 2>&1 &
done
wait %2 %3; sleep 30; kill %4 2>/dev/null  # rank 2 hangs at exit (stuck upload thread); operator kills it
wait %4
kill $GW
