#!/bin/bash
# usage: launch_loop.sh NRANKS PORT OUTDIR CMD...   (per-rank logs OUTDIR/rank_N.log)
N=$1; PORT=$2; OUT=$3; CMD=$4
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT WORLD_SIZE=$N
declare -A PID2RANK
echo "$(date '+%F %T') launching $N ranks: $CMD"
for ((r=0; r<N; r++)); do
  pre="RANK_PRE_$r"
  ( [ -n "${!pre}" ] && eval "${!pre}"; RANK=$r LOCAL_RANK=$r exec $CMD ) > $OUT/rank_$r.log 2>&1 &
  PID2RANK[$!]=$r
  echo "$(date '+%F %T') rank $r pid $!"
done
left=$N; failed=0
while [ $left -gt 0 ]; do
  wait -n -p done_pid; rc=$?
  r=${PID2RANK[$done_pid]}
  [ -z "$r" ] && continue
  echo "$(date '+%F %T') rank $r (pid $done_pid) exited with code $rc"
  left=$((left-1))
  if [ $rc -ne 0 ] && [ $failed -eq 0 ]; then
    failed=1
    ( sleep 20; for p in "${!PID2RANK[@]}"; do kill -0 $p 2>/dev/null && { echo "$(date '+%F %T') rank ${PID2RANK[$p]} (pid $p) still running 20s after a failure, sending SIGTERM"; kill -TERM $p; }; done ) &
  fi
done
echo "$(date '+%F %T') all ranks exited"
