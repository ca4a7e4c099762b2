#!/bin/bash
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21109 WORLD_SIZE=4 OMP_NUM_THREADS=1
for r in 0 1 2 3; do
  RANK=$r LOCAL_RANK=$r /work/blind/venv/bin/python /work/blind/r15/gen/train.py --data-dir /work/blind/r15/data/009_bashloop_uneven_data_r1 --epochs 1 --log-every 5 --log-style print --pg-timeout 20 &
done
wait
echo "all ranks exited"
