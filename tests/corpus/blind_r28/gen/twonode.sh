#!/bin/bash
# usage: [ENV] twonode.sh RUN PORT NPROC [extra args]  -> node0.log node1.log ; rc in rc/RUN.n0 rc/RUN.n1
RUN=$1; PORT=$2; NP=$3; shift 3
mkdir -p /work/blind/r28/runs/$RUN; cd /work/blind/r28/runs/$RUN
for n in 0 1; do
  ( timeout ${TMO:-170} /work/blind/venv/bin/torchrun --nnodes=2 --node-rank=$n --nproc-per-node=$NP --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:$PORT --rdzv-id=job$RUN "$@" /work/blind/r28/gen/train.py > node$n.log 2>&1; echo $? > /work/blind/r28/gen/rc/$RUN.n$n ) &
  echo $! > /work/blind/r28/gen/rc/$RUN.pid$n
  sleep 1
done
wait
