#!/bin/bash
#SBATCH --time=10
#SBATCH --signal=TERM@30
export MASTER_ADDR=127.0.0.1
export MASTER_PORT=$((31000 + SLURM_JOB_ID % 1000))
echo "job $SLURM_JOB_ID starting on $SLURM_JOB_NODELIST"
srun /work/blind/torchenv/bin/python /work/blind/r56/set/gen/train.py --steps 500 --step-sleep 0.3 --on-sigterm --ckpt /work/blind/r56/work/preempt037.pt --fmt pipe
echo "srun exited with $?"
