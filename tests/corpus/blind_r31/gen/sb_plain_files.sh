#!/bin/bash
#SBATCH --job-name=gpt2-tiny
source /work/blind/r31/gen/env.sh
export MASTER_ADDR=127.0.0.1
srun --output=$OUTDIR/rank%t.log python $G/plain.py
