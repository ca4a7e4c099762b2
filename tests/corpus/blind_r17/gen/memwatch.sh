#!/bin/bash
# earlyoom-like user watchdog: SIGKILL any python child of the given parent whose RSS exceeds LIMIT_KB
PARENT=$1; LIMIT_KB=$2
while kill -0 $PARENT 2>/dev/null; do
  for p in $(pgrep -P $PARENT); do
    rss=$(awk '/VmRSS/{print $2}' /proc/$p/status 2>/dev/null)
    if [ -n "$rss" ] && [ "$rss" -gt "$LIMIT_KB" ]; then
      echo "$(date +%T) memwatch: pid $p rss ${rss}kB > ${LIMIT_KB}kB, sending SIGKILL" >&2
      kill -9 $p
    fi
  done
  sleep 0.5
done
