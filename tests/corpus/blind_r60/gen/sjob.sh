#!/bin/bash
# generic sbatch body; SRUN_ARGS and env decide the behaviour
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MPORT:-29700} INIT_METHOD=env:// OMP_NUM_THREADS=1
export WORLD_SIZE=$SLURM_NTASKS
echo "job $SLURM_JOB_ID on $SLURM_JOB_NODELIST: $SLURM_NTASKS tasks, master $MASTER_ADDR:$MASTER_PORT"
srun $SRUN_ARGS bash -c 'export RANK=$SLURM_PROCID LOCAL_RANK=$SLURM_LOCALID; if [ -n "$ULIMIT_RANK" ] && [ "$SLURM_PROCID" = "$ULIMIT_RANK" ]; then ulimit -v 3000000; fi; exec /work/blind/torchenv/bin/python /work/blind/r60/gen/train.py'
echo "srun exited with $?"
