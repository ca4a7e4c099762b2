#!/bin/bash
# HEALTHY. Resume of an earlier run (phase 1, 40 steps, not pasted). Node 1's agent is started 10 s before
# node 0's (which hosts the store) and waits for it. Node 1 has no cached tokenizer and its hub mirror comes up
# a little late: the first download attempt is refused (warning), a retry succeeds. Training resumes from
# step 40 and completes at 120. torchrun 2 "nodes" x 2, TORCH_CPP_LOG_LEVEL=INFO. paste = node0.log, node1.log
source /work/blind/r25/gen/common.sh
newrun 031_healthy_late_node_resume
make_data
MAX_STEPS=120 EVAL_EVERY=40 CKPT_EVERY=40 LOG_EVERY=10 base_config config.toml
cat >> config.toml <<EOT

[tokenizer]
repo = "tinylm/bpe-512"
file = "tokenizer.json"
cache_dir = "\$NODE_HUB_CACHE"
EOT
mkdir -p $W/node0_hub/tinylm--bpe-512 $W/node1_hub $W/mirror/tinylm/bpe-512/resolve/main
echo '{"model": {"type": "BPE", "vocab": {}}}' | tee $W/node0_hub/tinylm--bpe-512/tokenizer.json > $W/mirror/tinylm/bpe-512/resolve/main/tokenizer.json
TINYLM_NOHUB=1 $TORCHRUN --nproc-per-node 4 --master-port 30311 -m tinylm.train --config config.toml --set run.max_steps=40 --set tokenizer.cache_dir="\"$W/node0_hub\"" > phase1.log 2>&1
export TORCH_CPP_LOG_LEVEL=INFO
HF_ENDPOINT=http://127.0.0.1:30312 NODE_HUB_CACHE=$W/node1_hub $TORCHRUN --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 30310 \
     -m tinylm.train --config config.toml --set run.resume='"auto"' > $OUT/node1.log 2>&1 &
sleep 10
NODE_HUB_CACHE=$W/node0_hub $TORCHRUN --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 30310 \
     -m tinylm.train --config config.toml --set run.resume='"auto"' > $OUT/node0.log 2>&1 &
# mirror comes up once node 1 has made its first attempt
for i in $(seq 200); do grep -q 'download of' $OUT/node1.log 2>/dev/null && break; sleep 0.1; done
$PY $R25/gen/servers.py hub 30312 $W/mirror & HUB=$!
wait %2 %3 2>/dev/null; wait $(jobs -p | grep -v $HUB) 2>/dev/null
kill $HUB
