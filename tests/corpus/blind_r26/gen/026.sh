#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 026_3node_detail_collective_mismatch
python $R/gen/mkdata.py data 4 --n 2000
export TORCH_DISTRIBUTED_DEBUG=DETAIL
C="--nnodes 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31260 --rdzv-id job026 --local-addr 127.0.0.1"
TA="$T --data data --steps 100 --log-every 10 --no-ddp --timeout 60 --fault metric_mismatch --fault-rank 2 --fault-step 37"
onnode cpu-r1-n01 torchrun $C --nproc-per-node 2 $TA > $RUN/cpu-r1-n01.log 2>&1 &
sleep 2
onnode cpu-r1-n02 torchrun $C --nproc-per-node 1 $TA > $RUN/cpu-r1-n02.log 2>&1 &
sleep 2
onnode cpu-r1-n03 torchrun $C --nproc-per-node 1 $TA > $RUN/cpu-r1-n03.log 2>&1
wait
