#!/bin/bash
# shard train-00003 was re-exported with float64 token ids (read by rank 3, on node 1).
# two "nodes" (two torchrun agents, 2 procs each, static rendezvous); paste = node0.log + node1.log
source /work/blind/r25/gen/common.sh
newrun 003_float_tokens
make_data --damage 3:float_tokens
base_config config.toml
for n in 0 1; do
  $TORCHRUN --nnodes 2 --node-rank $n --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 30030 \
     -m tinylm.train --config config.toml > $OUT/node$n.log 2>&1 &
done
wait
