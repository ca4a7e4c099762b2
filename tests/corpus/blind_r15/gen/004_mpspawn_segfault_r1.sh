#!/bin/bash
# Chunks are shuffled with a native (ctypes, C) gather kernel without bounds checks, using a
# precomputed permutation file per chunk. Rank 1's perm_001.npy is stale (from a 50M-row
# dataset version), so the kernel reads far out of bounds -> SIGSEGV in rank 1.
. /work/blind/r15/gen/env.sh
R=004_mpspawn_segfault_r1; D=$DATA/ds_004; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 3 --chunks 3
$PY - <<PYEOF
import numpy as np, glob
rng = np.random.default_rng(3)
for p in glob.glob("$D/rank*/chunk_*.npy"):
    np.save(p.replace("chunk_", "perm_"), rng.permutation(640).astype(np.int64))
np.save("$D/rank1/perm_001.npy", rng.permutation(50_000_000)[:640].astype(np.int64))
PYEOF
cd $RUNS/$R
export MASTER_PORT=21104 NPROCS=3
timeout 120 $PY $GEN/spawn_main.py --data-dir $D --native-gather $GEN/libfastgather.so --log-style print \
  --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
