#!/bin/bash
# Runs a command inside a memory cgroup (v1) of size $LIMIT, like a container/job memory limit.
CG=/sys/fs/cgroup/memory/process_api/553092435b34224c35e2aefdffd73d03/$CGNAME
mkdir -p $CG && echo $LIMIT > $CG/memory.limit_in_bytes && echo $$ > $CG/cgroup.procs
exec "$@"
