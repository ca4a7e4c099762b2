#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=022_tokenizer_fetch; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN/www; rm -rf $OUT/*
cd $W/$RUN
echo '{"version":"1.0","model":{"type":"BPE"}}' > www/tokenizer.json
$PY -m http.server 24022 --bind 127.0.0.1 --directory www > /dev/null 2>&1 &
HS=$!
sleep 1
COMMON="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:24023 --rdzv-id job022 --tee 3"
ARGS="--steps 60 --fail hub --timeout 40 --run-id $RUN --fmt plain"
TOKENIZER_URL=http://127.0.0.1:24022/tokenizer.json $TORCHRUN $COMMON $G/train.py $ARGS > $OUT/node-a.out 2>&1 &
A=$!
sleep 2
# node B's environment points at the team's hub mirror, which does not resolve from that node
TOKENIZER_URL=http://hf-mirror.corp.internal/models/llama-tok/resolve/main/tokenizer.json $TORCHRUN $COMMON $G/train.py $ARGS > $OUT/node-b.out 2>&1 &
B=$!
wait $A; echo "A=$?"; wait $B; echo "B=$?"
kill $HS
