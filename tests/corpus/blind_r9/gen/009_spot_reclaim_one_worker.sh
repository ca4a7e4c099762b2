#!/bin/bash
R=/work/blind/r9/runs/009_spot_reclaim_one_worker; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --master-port 30010 --log-dir $R/elastic --redirects 1 \
   /work/blind/r9/gen/009_spot_reclaim_one_worker.py > $R/torchrun.log 2>&1 &
TR=$!
/work/blind/venv/bin/python /work/blind/r9/gen/009_watchdog.py > $R/node-agent.log 2>&1
wait $TR; echo "exit=$?" >> $R/torchrun.log
