#!/bin/bash
R=/work/blind/r6/runs/001_fifo_stuck_rank; rm -rf $R; mkdir -p $R
export OMP_NUM_THREADS=1 SEED_FIFO=$R/seed.fifo
mkfifo $SEED_FIFO
cd $R
timeout 85 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29701 --log-dir $R/torchrun_logs --tee 3 \
  /work/blind/r6/gen/001_fifo_stuck_rank.py > $R/console.log 2>&1
echo "exit=$?" > $R/exit_code
rm -f $SEED_FIFO
