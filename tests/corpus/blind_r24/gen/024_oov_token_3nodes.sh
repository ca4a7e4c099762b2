#!/bin/bash
# Three torchrun agents: node0 2 procs, node1 2 procs, node2 1 proc (ranks 0-4); each node writes
# per-rank files with --log-dir/--redirects 3 into its own directory (nodeK/). No consoles kept.
set -u
source /work/blind/r24/gen/common.sh
N=024_oov_token_3nodes; W=$R/work/j024; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
TR="$TORCHRUN --nnodes 3 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29124 --rdzv-id job024"
timeout 150 $TR --nproc-per-node 2 --log-dir $OUT/node0 --redirects 3 $R/gen/s024.py > $W/node0.console 2>&1 & P0=$!; sleep 1
timeout 150 $TR --nproc-per-node 2 --log-dir $OUT/node1 --redirects 3 $R/gen/s024.py > $W/node1.console 2>&1 & P1=$!; sleep 1
timeout 150 $TR --nproc-per-node 1 --log-dir $OUT/node2 --redirects 3 $R/gen/s024.py > $W/node2.console 2>&1 & P2=$!
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"; wait $P2; echo "node2 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
