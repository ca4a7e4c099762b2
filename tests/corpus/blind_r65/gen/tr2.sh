#!/usr/bin/env bash
# two torchrun agents (--nnodes 2, 2 procs each) on this host; console of each "node" in OUT/node{0,1}.log
# usage: tr2.sh OUTDIR PORT [extra torchrun args...]; fault config via env
OUT=$1; PORT=$2; shift 2
mkdir -p "$OUT"
TR=/work/blind/torchenv/bin/torchrun
SCRIPT=${SCRIPT:-/work/blind/r65/gen/train.py}
cd /tmp
for n in 0 1; do
  $TR --nnodes 2 --nproc-per-node ${NPROC:-2} --node-rank $n --master-addr 127.0.0.1 --master-port $PORT "$@" $SCRIPT ${SARGS:-} > "$OUT/node$n.log" 2>&1 &
  pids[$n]=$!
done
wait ${pids[0]}; echo "node0 rc=$?" >&2
wait ${pids[1]}; echo "node1 rc=$?" >&2
