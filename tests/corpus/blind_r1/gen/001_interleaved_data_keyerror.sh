#!/usr/bin/env bash
# torchrun 4 ranks, no --log-dir; rank 2's shard has a record without "label"
# in the batch of step 164 -> KeyError on rank 2, others lose their peer.
set -u
NAME=001_interleaved_data_keyerror
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python $R1/gen/make_jsonl_shards.py data 4 9600 --break 2:$((163*32+11)):missing_label >/dev/null
export PYTHONUNBUFFERED=1
timeout 180 $PY/torchrun --nproc-per-node 4 --master-port 29601 train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
