#!/bin/bash
# poor man's OOM killer: SIGKILL any train.py whose RSS exceeds $1 MiB. Runs until $2 seconds passed.
LIM=$1; END=$(( $(date +%s) + $2 ))
while [ $(date +%s) -lt $END ]; do
  ps -eo pid=,rss=,args= | awk -v lim=$((LIM*1024)) '/train.py/ && $2 > lim {print $1}' | while read p; do kill -9 $p; echo "oomwatch: killed $p" >&2; done
  sleep 0.2
done
