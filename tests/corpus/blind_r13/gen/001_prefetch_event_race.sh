#!/bin/bash
R=/work/blind/r13/runs/001_prefetch_event_race
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 33001 --log-dir $R/logs --tee 3 \
  /work/blind/r13/gen/001_prefetch_event_race.py > $R/console.log 2>&1
echo "torchrun exit=$?" >> $R/console.log
