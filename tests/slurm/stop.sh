#!/usr/bin/env bash
# Stop the test Slurm started by start.sh: only the daemons its pid files name, never another Slurm on the machine.
set -uo pipefail
source "$(dirname "$0")/env.sh"
for daemon in slurmd slurmctld; do
  pid=$(our_pid "$daemon") && kill "$pid"
  for _ in $(seq 1 30); do  # gone before we return, so that a start.sh right after starts afresh
    our_pid "$daemon" >/dev/null || break
    sleep 1
  done
done
true
