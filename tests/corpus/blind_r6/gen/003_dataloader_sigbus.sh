#!/bin/bash
R=/work/blind/r6/runs/003_dataloader_sigbus; rm -rf $R; mkdir -p $R/data
export OMP_NUM_THREADS=1
/work/blind/venv/bin/python -c "
import numpy as np
for r in range(3): np.random.randn(4000,64).astype('float32').tofile('$R/data/shard_%d.bin'%r)"
cd $R
# a concurrent preprocessing job rewrites shard 1 in place ~28 s in
( sleep 28; truncate -s 8192 $R/data/shard_1.bin ) &
timeout 85 /work/blind/venv/bin/python /work/blind/r6/gen/003_dataloader_sigbus.py $R/data > $R/train.log 2>&1
echo "exit=$?" > $R/exit_code
wait; rm -rf $R/data
