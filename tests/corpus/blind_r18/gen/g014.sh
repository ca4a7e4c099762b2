#!/bin/bash
# sbatch + srun steps. Each rank memory-maps its node-local packed cache file in 2 DataLoader workers. A scratch
# janitor truncates packed-2.bin (rank 2's) mid-run; rank 2's worker touches a page past the new EOF: SIGBUS.
# PyTorch reports "DataLoader worker (pid N) is killed by signal: Bus error"; the others lose their peer.
source /work/blind/r18/gen/common.sh
newrun 014_mmap_cache_bus_error
mkdir -p $WORK/cache
$PY -c "
import numpy as np
for r in range(4):
    a = np.random.default_rng(r).standard_normal((4096, 33)).astype('float32'); a[:, 32] = np.arange(4096) % 4
    a.tofile('$WORK/cache/packed-%d.bin' % r)
"
export CACHE_DIR=$WORK/cache PY GEN
jid=$(sbatch --parsable --wait $GEN/job014.sbatch); echo "rc=$? job=$jid"
