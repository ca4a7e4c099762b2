#!/bin/bash
# 3 plain python processes, env://, each stdout+stderr -> worker-<pid>.log (renamed after start)
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/019_send_to_self; rm -rf $D; mkdir -p $D; cd $D
export MASTER_ADDR=127.0.0.1 MASTER_PORT=27190 WORLD_SIZE=3 OMP_NUM_THREADS=1
for r in 0 1 2; do sh -c 'exec > worker-$$.log 2>&1; RANK='$r' LOCAL_RANK='$r' exec timeout 120 /work/blind/venv/bin/python '$G'/train_019.py' & done
wait; echo done
