#!/bin/bash
# per-rank failure assignment for runs with two independent failures; RANK from torchrun or srun
export RANK=${RANK:-$SLURM_PROCID} WORLD_SIZE=${WORLD_SIZE:-$SLURM_NTASKS} LOCAL_RANK=${LOCAL_RANK:-$SLURM_LOCALID}
v=FAIL_R$RANK; [ -n "${!v}" ] && export FAIL=${!v} FAIL_RANK=$RANK
d=FAIL_DELAY_R$RANK; [ -n "${!d}" ] && export FAIL_DELAY=${!d}
exec /work/blind/torchenv/bin/python /work/blind/r54/set/gen/train.py
