#!/bin/bash
source /work/blind/venv/bin/activate
D=/work/blind/r21/runs/005_bash_launch; rm -rf $D; mkdir -p $D/logs; cd $D
export MASTER_ADDR=127.0.0.1 MASTER_PORT=26105 WORLD_SIZE=4 FMODE=size FRANK=1 FSTEP=17 STEPS=30 LOGFMT=bare PG_TIMEOUT=25
echo "$(date '+%F %T') launching 4 workers" | tee launch.log
pids=()
for r in 0 1 2 3; do
  RANK=$r LOCAL_RANK=$r python /work/blind/r21/gen/train.py > logs/worker_$r.log 2>&1 &
  pids+=($!)
done
for i in 0 1 2 3; do wait ${pids[$i]}; rc=$?; echo "$(date '+%F %T') worker $i exited with status $rc" | tee -a launch.log; done
