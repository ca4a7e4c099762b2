#!/bin/bash
# usage: tr.sh OUTFILE NPROC PORT [extra torchrun args...]  (env FAULT etc passed through)
out=$1; n=$2; port=$3; shift 3
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
timeout 150 /work/blind/venv/bin/torchrun --nproc-per-node $n --master-port $port "$@" /work/blind/r33/gen/train.py > $out 2>&1
echo "exit=$?" >> $out.meta
