#!/bin/bash
# map Slurm task vars to torch.distributed env:// vars
export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID
export MASTER_ADDR=${MASTER_ADDR:-127.0.0.1}
exec "$@"
