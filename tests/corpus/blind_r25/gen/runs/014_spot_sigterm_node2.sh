#!/bin/bash
# 4 single-process "nodes" (4 torchrun agents, static rendezvous). ~14 s in, node 2 is reclaimed
# (spot): its torchrun agent gets SIGTERM, forwards it to rank 2, whose handler finishes the step,
# writes an emergency checkpoint and exits 0. Ranks 0,1,3 then lose their peer in the next all_reduce.
# paste = logs/node0.log .. node3.log
source /work/blind/r25/gen/common.sh
newrun 014_spot_sigterm_node2
make_data
MAX_STEPS=400 EVAL_EVERY=50 CKPT_EVERY=100 base_config config.toml
mkdir -p $OUT/logs
for n in 0 1 2 3; do
  $TORCHRUN --nnodes 4 --node-rank $n --nproc-per-node 1 --master-addr 127.0.0.1 --master-port 30140 \
     -m tinylm.train --config config.toml > $OUT/logs/node$n.log 2>&1 &
  eval "A$n=$!"
done
sleep 14
kill -TERM $A2
wait
