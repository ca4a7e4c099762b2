#!/bin/bash
# 2-node elastic launch (c10d rendezvous, join_timeout=40s). Node 1's launch script has a stale
# --rdzv-endpoint port (30251 instead of 30250), so each agent waits in its own rendezvous and both time out;
# no worker ever starts. paste = node0.log, node1.log (agent consoles)
source /work/blind/r25/gen/common.sh
newrun 025_rdzv_wrong_endpoint
make_data
MAX_STEPS=80 EVAL_EVERY=40 CKPT_EVERY=40 base_config config.toml
for n in 0 1; do
  port=30250; [ $n = 1 ] && port=30251
  $TORCHRUN --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$port --rdzv-id tinylm-ablation-0412 \
     --rdzv-conf join_timeout=40 -m tinylm.train --config config.toml > $OUT/node$n.log 2>&1 &
done
wait
