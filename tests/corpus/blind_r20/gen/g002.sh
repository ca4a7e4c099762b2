#!/bin/bash
# loss spike/divergence on rank 1 (bad shard amplitudes), bash loop, json logs per rank file
source /work/blind/r20/gen/common.sh
D=$R/002_ctr_model_sweep; rm -rf $D; mkdir -p $D/logs; cd $W
export MASTER_ADDR=127.0.0.1 MASTER_PORT=25012 WORLD_SIZE=4 FAULT=spike FAULT_RANK=1 FAULT_STEP=22 NSTEPS=50 FMT=json LR=0.01
pids=()
for r in 0 1 2 3; do
  RANK=$r LOCAL_RANK=$r $PY $G/train.py > $D/logs/worker_$r.log 2>&1 &
  pids+=($!)
done
for i in 0 1 2 3; do wait ${pids[$i]}; echo "worker $i exited with $?" | tee -a $D/launch.out; done
