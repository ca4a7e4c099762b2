#!/bin/bash
# torchrun, 3 workers, TORCH_DISTRIBUTED_DEBUG=DETAIL, console only
set -u
RUN=/work/blind/r2/runs/008_collective_shape_mismatch_r2
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1 TORCH_DISTRIBUTED_DEBUG=DETAIL
/work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29618 /work/blind/r2/gen/008_collective_shape_mismatch_r2.py > console.log 2>&1
echo "exit code $?"
