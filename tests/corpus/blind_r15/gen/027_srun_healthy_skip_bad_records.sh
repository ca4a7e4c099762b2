#!/bin/bash
# HEALTHY. srun -l -n 3 (--kill-on-bad-exit=1), record DataLoader with 2 workers per rank,
# TORCH_DISTRIBUTED_DEBUG=INFO. Rank 1 and rank 2 each hit a short (corrupt) record; the dataset
# logs a warning with the ValueError traceback from inside the DataLoader worker and substitutes
# the next record. All ranks finish 60 steps; exit 0.
. /work/blind/r15/gen/env.sh
R=027_srun_healthy_skip_bad_records; D=$DATA/ds_027; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_records.py $D --ranks 3 --records 1920 --bad 1:500:31 --bad 2:1300:17
cd $RUNS/$R
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21127 TORCH_DISTRIBUTED_DEBUG=INFO
timeout 150 srun -l -n 3 --kill-on-bad-exit=1 $PY $GEN/train.py --data-dir $D --records --num-workers 2 --skip-bad-records \
  --epochs 5 --max-steps 60 --log-every 5 --pg-timeout 30 > console.log 2>&1
echo "rc=$?"
