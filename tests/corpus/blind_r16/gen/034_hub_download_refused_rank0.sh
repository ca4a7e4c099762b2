#!/bin/bash
# bash loop, 3 ranks, rank outputs prefixed and merged like a terminal; rank 0 downloads the tokenizer from
# the (unreachable) model hub mirror before init; ranks 1,2 wait in the store for rank 0 and time out.
NAME=034_hub_download_refused_rank0; source /work/blind/r16/gen/common.sh
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21034 WORLD_SIZE=3 STEPS=30 LOGFMT=logging
export TOKENIZER_URL=http://127.0.0.1:21934/models/llama-tiny/resolve/main/tokenizer.json
for r in 0 1 2; do RANK=$r LOCAL_RANK=$r $PY $TRAIN 2>&1 | sed -u "s/^/rank$r | /" & done > terminal.log
wait
