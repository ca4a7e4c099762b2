#!/bin/bash
# two torchrun agents (2 "nodes" x 2). Local rank 0 of each node fetches the tokenizer vocab from the artifact
# hub into a node-local cache, then everyone meets in a barrier. Node 0's cache is warm; node 1's is empty and
# its environment routes HTTP through a proxy that is down (http_proxy=127.0.0.1:23025, nothing listening):
# rank 2 fails 3 download attempts with "URLError ... Connection refused" and dies; the others lose their peer.
source /work/blind/r18/gen/common.sh
newrun 024_artifact_hub_proxy_down
mkdir -p $WORK/cache0/tokenizers/bpe-32k-v5 $WORK/cache1
$PY -c "import json; json.dump({'tok%d' % i: i for i in range(32000)}, open('$WORK/cache0/tokenizers/bpe-32k-v5/vocab.json', 'w'))"
export HUB_URL=http://artifacts.ml-platform.internal:8080/v1/files
ARGS="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 23024"
NODE_CACHE=$WORK/cache0 $TORCHRUN $ARGS --node-rank 0 --tee 3 --log-dir node0 $GEN/p024_hubfetch.py > node0.console 2>&1 &
A=$!
NODE_CACHE=$WORK/cache1 http_proxy=http://127.0.0.1:23025 $TORCHRUN $ARGS --node-rank 1 --redirects 3 --log-dir node1 $GEN/p024_hubfetch.py > node1.console 2>&1 &
B=$!
wait $A; echo "node0 rc=$?"; wait $B; echo "node1 rc=$?"
