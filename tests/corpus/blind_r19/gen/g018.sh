#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=018_resume_old_config; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN/ckpt; rm -rf $OUT/*
cd $W/$RUN
# rank 0's shard was copied from the older run with hidden=128
$PY $G/mkckpt.py $W/$RUN/ckpt/shard_rank0.pt 32 128
for r in 1 2 3; do $PY $G/mkckpt.py $W/$RUN/ckpt/shard_rank$r.pt 32 64; done
sbatch --wait -o $OUT/slurm-%j.out $G/s018.sbatch
echo "exit=$?"
