#!/bin/bash
#SBATCH --job-name=lit-gpt2
source /work/blind/r31/gen/env.sh
export MASTER_ADDR=127.0.0.1
echo "job $SLURM_JOB_ID on $(hostname) start $(date -Is)"
srun python $G/pl_train.py
