#!/bin/bash
# Emulates a node/container with a smaller memory limit for one task: puts this task
# into a memory cgroup (v1) with memory.limit_in_bytes=$LIMIT before exec'ing the trainer.
if [ -n "$LIMIT_RANK" ] && [ "${SLURM_PROCID:-$RANK}" = "$LIMIT_RANK" ]; then
  CG=/sys/fs/cgroup/memory/process_api/553092435b34224c35e2aefdffd73d03/$CGNAME
  mkdir -p $CG && echo $LIMIT > $CG/memory.limit_in_bytes && echo $$ > $CG/cgroup.procs
fi
exec "$@"
