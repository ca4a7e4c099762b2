#!/bin/bash
# 009: bash loop, 4 ranks, env:// init. The host file entry used for rank 2 is stale, so rank 2 gets
# MASTER_ADDR=10.254.254.1 (unreachable); it cannot reach the store, the others wait for it at init.
R=/work/blind/r17/runs/009_rank_wrong_master_addr; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen MASTER_PORT=22091 WORLD_SIZE=4 PG_TIMEOUT=15
for r in 0 1 2 3; do
  addr=127.0.0.1; [ $r = 2 ] && addr=10.254.254.1
  ( echo "launching rank $r -> $addr:$MASTER_PORT"
    MASTER_ADDR=$addr RANK=$r LOCAL_RANK=$r exec /work/blind/venv/bin/python /work/blind/r17/gen/train_basic.py ) > out.rank$r.txt 2>&1 &
done
wait
