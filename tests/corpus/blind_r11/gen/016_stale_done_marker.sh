#!/bin/bash
# torchrun --log-dir with --tee 1 (stdout teed to the console with [defaultN]: prefixes, stderr only in the files).
# The new experiment reuses an output dir from last week's sweep that still holds its COMPLETED marker.
R=/work/blind/r11; RUN=$R/runs/016_stale_done_marker; S=$R/scratch/016
rm -rf $RUN $S && mkdir -p $RUN $S/out && cd $RUN
echo '{"step": 3000, "date": "2026-11-26"}' > $S/out/COMPLETED
export OMP_NUM_THREADS=1 OUTPUT_DIR=$S/out
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 31116 \
  --log-dir $RUN/torchelastic --tee 1 $R/gen/016_stale_done_marker.py > console.log 2>&1
rm -rf $S
