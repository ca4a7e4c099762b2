#!/usr/bin/env bash
# torchrun 4 ranks training normally; 30 s after launch the torchrun (agent) process gets
# SIGTERM from outside (simulating a scheduler preemption / spot reclaim). No rank failed
# on its own.
set -u
NAME=012_preempt_sigterm_torchrun
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
export PYTHONUNBUFFERED=1
timeout 180 $PY/torchrun --nproc-per-node 4 --master-port 29612 train.py > $RUN/console.log 2>&1 &
TPID=$!
sleep 30
# the torchrun process is the child of `timeout`
AGENT=$(pgrep -P $TPID -f torchrun | head -1)
echo "sending SIGTERM to torchrun pid $AGENT" >&2
kill -TERM $AGENT
wait $TPID; echo "exit=$?" >&2
