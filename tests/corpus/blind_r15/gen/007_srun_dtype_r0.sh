#!/bin/bash
# Only rank 0 runs evaluation. The validation file was written as float64 by a new export
# script; at step 20 model(vx) fails with a dtype mismatch (Double vs Float) on rank 0.
. /work/blind/r15/gen/env.sh
R=007_srun_dtype_r0; D=$DATA/ds_007; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 3 --chunks 3
$PY -c "import numpy as np; a=np.load('$D/rank0/chunk_002.npy').astype(np.float64); np.save('$D/val.npy', a)"
cd $RUNS/$R
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21107
timeout 120 srun -n 3 $PY $GEN/train.py --data-dir $D --val-file $D/val.npy --eval-every 20 --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
