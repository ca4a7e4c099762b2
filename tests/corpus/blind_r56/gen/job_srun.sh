#!/bin/bash
#SBATCH --time=5
# usage: sbatch [sbatch opts] job_srun.sh [srun opts] -- [train.py opts]
export MASTER_ADDR=127.0.0.1
export MASTER_PORT=$((31000 + SLURM_JOB_ID % 1000))
SRUN_OPTS=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do SRUN_OPTS+=("$1"); shift; done
shift
echo "job $SLURM_JOB_ID ($SLURM_JOB_NAME) on $SLURM_JOB_NODELIST: $SLURM_NTASKS tasks, master $MASTER_ADDR:$MASTER_PORT"
srun "${SRUN_OPTS[@]}" /work/blind/torchenv/bin/python /work/blind/r56/set/gen/train.py "$@"
echo "srun exited with $?"
