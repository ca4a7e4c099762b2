#!/bin/bash
# torchrun --log-dir torchlogs --tee 3 ; console -> console.log
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/004_rank1_blocked_fifo; rm -rf $D; mkdir -p $D; cd $D
F=/work/blind/r22/work/ctl004.fifo; rm -f $F; mkfifo $F
CTL_FIFO=$F OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/torchrun --nproc_per_node=3 --master_port=27040 --log-dir torchlogs --tee 3 $G/train_004.py > console.log 2>&1
echo "rc=$?"; rm -f $F
