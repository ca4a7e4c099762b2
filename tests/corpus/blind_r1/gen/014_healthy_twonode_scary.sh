#!/usr/bin/env bash
# Healthy 2-"node" run (two torchrun agents, c10d rendezvous, 2 procs each). Harmless but
# scary lines: node_rank-ignored warning, an lr_scheduler order UserWarning, rank 0's metrics
# relay refusing connections (logged with tracebacks) until it comes up ~22 s after launch,
# and a one-off slow-step warning (1.5 s pause on one rank). Completes with exit 0.
set -u
NAME=014_healthy_twonode_scary
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
export PYTHONUNBUFFERED=1
# the metrics relay: a plain TCP sink that starts late and lives for 90 s
( sleep 22; exec timeout 90 $PY/python -c "
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', 29790)); s.listen(4)
while True:
    c, _ = s.accept()
    while c.recv(4096):
        pass
" ) >/dev/null 2>&1 &
RELAY=$!
COMMON="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29714 --rdzv-id job-healthy-14"
timeout 180 $PY/torchrun $COMMON --node-rank 0 train.py > $RUN/console_node0.log 2>&1 &
P0=$!
sleep 4
timeout 180 $PY/torchrun $COMMON --node-rank 1 train.py > $RUN/console_node1.log 2>&1 &
P1=$!
wait $P0; echo "node0 exit=$?" >&2
wait $P1; echo "node1 exit=$?" >&2
kill $RELAY 2>/dev/null; wait $RELAY 2>/dev/null
