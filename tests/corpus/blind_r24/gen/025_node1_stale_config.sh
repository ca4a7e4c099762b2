#!/bin/bash
# Three torchrun agents x 1 proc (ranks 0-2). Node 1 exports MODEL_CONFIG=configs/exp41.json (hidden 96);
# nodes 0 and 2 use configs/exp42.json (hidden 128), matching the checkpoint. Node consoles kept.
set -u
source /work/blind/r24/gen/common.sh
N=025_node1_stale_config; W=$R/work/j025; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/configs; cd $W
echo '{"hidden": 96, "name": "exp41"}' > configs/exp41.json
echo '{"hidden": 128, "name": "exp42"}' > configs/exp42.json
$PY -c "
import sys; sys.path.insert(0, '$R/gen'); import lib, torch
torch.save({'model': lib.model(hidden=128).state_dict(), 'step': 1200}, '$W/exp42_step1200.pt')"
TR="$TORCHRUN --nnodes 3 --nproc-per-node 1 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29125 --rdzv-id job025"
for k in 0 1 2; do
  CFG=$W/configs/exp42.json; [ $k = 1 ] && CFG=$W/configs/exp41.json
  MODEL_CONFIG=$CFG INIT_CKPT=$W/exp42_step1200.pt timeout 150 $TR $R/gen/s025.py > $OUT/node$k.log 2>&1 &
  eval P$k=$!; sleep 1
done
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"; wait $P2; echo "node2 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
