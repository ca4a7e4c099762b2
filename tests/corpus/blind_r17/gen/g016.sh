#!/bin/bash
# 016: bash loop, 3 ranks; each rank's stdout goes through logship.py into rank_N.log, stderr to rank_N.err.
# Rank 0 logs "lr warmup 25% complete"; the shipper crashes on '%' (ValueError), so rank 0's next print raises
# BrokenPipeError; rank 0 dies, ranks 1 and 2 lose their peer.
R=/work/blind/r17/runs/016_log_shipper_pipe_broken; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen MASTER_ADDR=127.0.0.1 MASTER_PORT=22161 WORLD_SIZE=3 PG_TIMEOUT=15 SCHED_LOG_RANK=0
for r in 0 1 2; do
  RANK=$r LOCAL_RANK=$r /work/blind/venv/bin/python /work/blind/r17/gen/warm_train.py 2> rank_$r.err | /work/blind/venv/bin/python /work/blind/r17/gen/logship.py rank_$r.log 2>> rank_$r.log &
done
wait
