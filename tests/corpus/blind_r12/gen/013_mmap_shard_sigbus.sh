#!/bin/bash
# the nightly dataset refresh job rewrites shards in place (open with O_TRUNC, then write) while this run trains
R=/work/blind/r12/runs/013_mmap_shard_sigbus
rm -rf $R && mkdir -p $R/dataset && cd $R
/work/blind/venv/bin/python -c "
import numpy as np
for r in range(3): np.random.default_rng(r).integers(0,4096,size=200000).astype(np.uint16).tofile(f'dataset/train_{r:03d}.bin')"
export OMP_NUM_THREADS=1
( sleep 7; /work/blind/venv/bin/python -c "
f = open('$R/dataset/train_001.bin', 'wb')  # truncates, then re-export is slow
import time; time.sleep(30)" ) &
timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 32113 --log-dir $R/run_logs --redirects 3 \
  /work/blind/r12/gen/013_mmap_shard_sigbus.py > $R/launcher.out 2>&1
echo "exit=$?" >> $R/launcher.out
kill %1 2>/dev/null; wait
rm -rf $R/dataset
