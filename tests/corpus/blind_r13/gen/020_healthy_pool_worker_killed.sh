#!/bin/bash
R=/work/blind/r13/runs/020_healthy_pool_worker_killed
rm -rf $R && mkdir -p $R/run && cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/python /work/blind/r13/gen/020_healthy_pool_worker_killed.py > $R/run/launcher.out 2>&1
echo "exit status $?" >> $R/run/launcher.out
tar czf run_logs.tar.gz run && rm -rf run
