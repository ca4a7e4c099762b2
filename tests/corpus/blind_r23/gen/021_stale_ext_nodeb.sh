#!/bin/bash
# 021: two torchrun agents as two nodes (c10d rdzv on 127.0.0.1:28211), 2 ranks
# each, --tee 3. node-b's PYTHONPATH has a stale build of the fused_ops C
# extension (undefined symbol from an older libc10); both of node-b's ranks
# fail importing it before init_process_group; node-a's ranks wait in the
# store barrier and time out after 30 s.
set -u
R=/work/blind/r23; RUN=$R/runs/021_stale_ext_nodeb; rm -rf $RUN; mkdir -p $RUN
$R/gen/build_fused_ops.sh
cd $R/work
COMMON="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:28211 --rdzv-id lm021 --max-restarts 0 --tee 3"
ARGS="--data-dir data/base --steps 300 --eval-every 100 --ckpt-every 0 --timeout 30 --fused-ops"
PYTHONPATH=$R/work/sites/node-a timeout 150 /work/blind/venv/bin/torchrun $COMMON --node-rank 0 $R/gen/train_lm.py $ARGS > $RUN/node-a.log 2>&1 &
sleep 3
PYTHONPATH=$R/work/sites/node-b timeout 150 /work/blind/venv/bin/torchrun $COMMON --node-rank 1 $R/gen/train_lm.py $ARGS > $RUN/node-b.log 2>&1 &
wait
