#!/bin/bash
# srun -l -n 3, record DataLoader with 2 workers per rank. While training, one of
# rank 1's DataLoader workers is SIGKILLed once from outside (like a transient kill of a worker);
# the trainer only catches that error around next(it); here the SIGCHLD handler raised it inside
# time.sleep() after the step, so rank 1 died; ranks 0,2 lost their peer. (Was meant as healthy.)
. /work/blind/r15/gen/env.sh
R=029_srun_dataloader_worker_killed_r1; D=$DATA/ds_029; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_records.py $D --ranks 3 --records 1920
cd $RUNS/$R
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21127
timeout 150 srun -l -n 3 $PY $GEN/train.py --data-dir $D --records --num-workers 2 --recover-loader --epochs 5 \
  --max-steps 60 --step-sleep 0.15 --log-every 5 --pg-timeout 30 > console.log 2>&1 &
SP=$!
for i in $(seq 60); do sleep 1; grep -q "\[rank1\] train: epoch 0 step 10 " console.log && break; done
P1=$(grep -o "\[rank1\] train: starting on vm pid=[0-9]*" console.log | grep -o "[0-9]*$")
W=$(pgrep -P $P1 | head -1); echo "rank1 pid $P1, killing worker $W"; kill -9 $W
wait $SP; echo "rc=$?"
