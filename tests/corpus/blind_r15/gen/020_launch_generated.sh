#!/bin/bash
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21120 WORLD_SIZE=4 OMP_NUM_THREADS=1
pids=()
for r in 0 1 2 3; do
  RANK=$r LOCAL_RANK=$r /work/blind/venv/bin/python /work/blind/r15/gen/train.py --data-dir /work/blind/r15/data/ds_020 --ext-cache /work/blind/r15/data/ds_020/ext_cache --log-every 5 --pg-timeout 20 > logs/rank$r.log 2>&1 &
  pids+=($!)
  echo "launched rank $r pid ${pids[-1]}"
done
for r in 0 1 2 3; do
  wait ${pids[$r]}; rc=$?
  echo "rank $r exited with code $rc"
done
