#!/bin/bash
# one task of an srun-launched plain torch job
export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID MASTER_ADDR=127.0.0.1 MASTER_PORT=$((21000 + SLURM_JOB_ID % 1000))
exec /work/blind/torchenv/bin/python /work/blind/r55/set/gen/fw_torch.py "$@"
