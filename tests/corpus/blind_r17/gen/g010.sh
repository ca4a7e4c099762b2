#!/bin/bash
# 010: user launch script starting 3 ranks in a loop (env://, rank 0 hosts the TCPStore), all output into one file.
# ~14s in, an external watchdog SIGKILLs rank 0 (the store host). Ranks 1,2 lose their peer / the store.
R=/work/blind/r17/runs/010_store_host_rank_killed; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen MASTER_ADDR=127.0.0.1 MASTER_PORT=22101 WORLD_SIZE=3 PG_TIMEOUT=15 STEPS=40 LOGSTYLE=logging
{
declare -A pids
for r in 0 1 2; do
  RANK=$r LOCAL_RANK=$r /work/blind/venv/bin/python /work/blind/r17/gen/train_basic.py 2>&1 &
  pids[$r]=$!
  echo "launch.sh: started rank $r pid ${pids[$r]}"
done
( sleep 14; kill -9 ${pids[0]} ) &
for r in 0 1 2; do wait ${pids[$r]}; echo "launch.sh: rank $r (pid ${pids[$r]}) exited with status $?"; done
} > train.log 2>&1
