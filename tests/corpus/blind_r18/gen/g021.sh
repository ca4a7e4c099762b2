#!/bin/bash
# plain bash launcher; each process writes JSON lines (and its traceback) to logs/<host>.<pid>.jsonl, so the
# file names say nothing about the rank. Rank 1's data file came from a pandas export and holds float64
# features: the first forward on rank 1 raises "mat1 and mat2 must have the same dtype"; the others wait in the
# first gradient all_reduce and lose their peer.
source /work/blind/r18/gen/common.sh
newrun 021_float64_export_shard
mkdir -p $WORK/data logs
$PY -c "
import torch
for r in range(4):
    g = torch.Generator().manual_seed(r)
    x = torch.randn(160, 32, generator=g)
    if r == 1: x = x.double()
    torch.save({'x': x, 'y': torch.randint(0, 4, (160,), generator=g)}, '$WORK/data/train-%02d.pt' % r)
"
export DATA_DIR=$WORK/data LOG_DIR=$RUN/logs MASTER_ADDR=127.0.0.1 MASTER_PORT=23021 WORLD_SIZE=4
for r in 0 1 2 3; do RANK=$r LOCAL_RANK=$r setsid $PY $GEN/p021_dtype.py & done
wait
echo "all workers exited"
