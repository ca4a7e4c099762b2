#!/bin/bash
# Each rank waits for its node's dataset staging marker before init_process_group. Rank 3's
# staging never finishes, so rank 3 never joins; ranks 0-2 time out in init_process_group (20 s).
# srun -n 4 -W 15 (remaining tasks are killed 15 s after the first one exits).
. /work/blind/r15/gen/env.sh
R=024_srun_rank_never_joins_r3; D=$DATA/ds_024; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 2
mkdir -p $D/staging; for r in 0 1 2; do touch $D/staging/done.rank$r; done
cd $RUNS/$R
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21124
timeout 120 srun -n 4 -W 15 $PY $GEN/train.py --data-dir $D --staging-flag "$D/staging/done.rank{rank}" \
  --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
