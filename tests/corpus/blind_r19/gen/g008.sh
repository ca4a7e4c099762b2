#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=008_long_pretrain_wall; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
sbatch --wait -o $OUT/slurm-%j.out $G/s008.sbatch
echo "exit=$?"
