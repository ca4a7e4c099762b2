#!/bin/bash
# Tokenizer comes from the model hub into a node-local cache; local rank 0 of each node downloads, then all
# ranks meet in a barrier. Node 0's cache already has it; node 1 is a fresh node whose HF_ENDPOINT points to
# an internal mirror name its resolver cannot resolve -> global rank 2 (node 1, local 0) retries 3x and
# raises URLError; rank 3 and node 0's ranks wait in the barrier.
# torchrun 2 "nodes" x 2 procs; paste = node0.log, node1.log
source /work/blind/r25/gen/common.sh
newrun 022_hub_dns_node1
make_data
MAX_STEPS=80 EVAL_EVERY=40 CKPT_EVERY=40 base_config config.toml
cat >> config.toml <<EOT

[tokenizer]
repo = "tinylm/bpe-512"
file = "tokenizer.json"
cache_dir = "\$NODE_HUB_CACHE"
EOT
mkdir -p $W/node0_hub/tinylm--bpe-512 $W/node1_hub
echo '{"model": {"type": "BPE", "vocab": {}}}' > $W/node0_hub/tinylm--bpe-512/tokenizer.json
for n in 0 1; do
  if [ $n = 1 ]; then export HF_ENDPOINT=http://hf-mirror.corp.internal; fi
  NODE_HUB_CACHE=$W/node${n}_hub $TORCHRUN --nnodes 2 --node-rank $n --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 30220 \
     -m tinylm.train --config config.toml > $OUT/node$n.log 2>&1 &
done
wait
