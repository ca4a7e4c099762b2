#!/bin/bash
# torchrun on one node, 4 workers, console only (no --log-dir/--tee); console captured by the job wrapper.
# The metrics sidecar normally creates a named pipe and reads from it; it crashed before the run,
# leaving the FIFO behind with no reader.
R=/work/blind/r11; RUN=$R/runs/003_metrics_fifo_silent; S=$R/scratch/003
rm -rf $RUN $S && mkdir -p $RUN $S && cd $RUN
mkfifo $S/train.prom
export OMP_NUM_THREADS=1 PROM_TEXTFILE=$S/train.prom
timeout 90 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 31103 \
  $R/gen/003_metrics_fifo_silent.py > console.log 2>&1
rm -rf $S
