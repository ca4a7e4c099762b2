#!/bin/bash
# torchrun --log-dir + --redirects 3 (per-rank stdout/stderr files, agent lines on console)
R=/work/blind/r3/runs/004_prefetch_event_hang; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job004; rm -rf $J; mkdir -p $J; cp /work/blind/r3/gen/004_prefetch_event_hang.py $J/pretrain.py
cd $J
/work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29504 --log-dir $R/logs --redirects 3 \
  pretrain.py > $R/console.log 2>&1
echo "exit $?"
