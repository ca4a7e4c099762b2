#!/bin/bash
# torchrun --log-dir (no tee), 4 workers resume per-rank checkpoints; rank 3's file comes from a hidden=128 run
NAME=009_resume_shape_mismatch_rank3; source /work/blind/r16/gen/common.sh
C=/work/blind/r16/mnt/009; mkdir -p $C; $PY $GEN/make_ckpts.py $C 4 3 128
RESUME="$C/resume_rank{rank}.pt" STEPS=40 LOGFMT=logging \
  $TORCHRUN --standalone --nproc-per-node=4 --log-dir torchelastic_logs $TRAIN > launcher_console.txt 2>&1
rm -rf $C
