#!/bin/bash
# per-task wrapper for run 006: task 3 runs in its own mount namespace where
# /dev/shm is a 192 KB tmpfs (a container started with a too-small --shm-size).
export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID
if [ "$SLURM_PROCID" = "3" ]; then
  exec unshare -m bash -c 'mount -t tmpfs -o size=192k shm /dev/shm && exec "$@"' _ "$@"
fi
exec "$@"
