#!/bin/bash
# torchrun, 4 procs, console captured to train.log (stdout+stderr), no --log-dir
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/001_rss_growth_killed; rm -rf $D; mkdir -p $D; cd $D
/work/blind/venv/bin/python $G/oom_watchdog.py train_001 600 120 > /work/blind/r22/work/001_watchdog.out &
WD=$!
OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/torchrun --nproc_per_node=4 --master_port=27010 $G/train_001.py > train.log 2>&1
echo "rc=$?"; kill $WD 2>/dev/null; cat /work/blind/r22/work/001_watchdog.out
