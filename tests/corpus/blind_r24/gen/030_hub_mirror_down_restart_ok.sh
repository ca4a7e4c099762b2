#!/bin/bash
# Two torchrun agents x 2 procs, --max-restarts 1. Node 0's tokenizer cache is warm; node 1's is empty
# and its HF_ENDPOINT mirror (127.0.0.1:29130) is not running at first. After the first failure is
# visible in node 1's console, the mirror is started; the restarted attempt completes. Consoles kept.
set -u
source /work/blind/r24/gen/common.sh
N=030_hub_mirror_down_restart_ok; W=$R/work/j030; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/cache0 $W/cache1 $W/mirror/gpt2/resolve/main; cd $W
echo '{"version": "1.0", "model": {"type": "BPE", "vocab": {"a": 0}}}' > $W/cache0/tokenizer.json
cp $W/cache0/tokenizer.json $W/mirror/gpt2/resolve/main/tokenizer.json
TR="$TORCHRUN --nnodes 2 --nproc-per-node 2 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint localhost:29132 --rdzv-id job030"
HF_ENDPOINT=https://huggingface.co TOKENIZER_CACHE=$W/cache0 timeout 150 $TR $R/gen/s030.py > $OUT/node0.log 2>&1 & P0=$!
sleep 1
HF_ENDPOINT=http://127.0.0.1:29130 TOKENIZER_CACHE=$W/cache1 timeout 150 $TR $R/gen/s030.py > $OUT/node1.log 2>&1 & P1=$!
wait_for $OUT/node1.log "failed (exitcode" 90
(cd $W/mirror && exec $PY -m http.server --bind 127.0.0.1 29130 > $W/mirror.log 2>&1) & MIRROR=$!
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"
kill $MIRROR
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
