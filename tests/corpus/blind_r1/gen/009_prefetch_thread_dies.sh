#!/usr/bin/env bash
# torchrun 4 ranks, no --log-dir, everything interleaved. Rank 2's shard has invalid UTF-8
# in a record of the batch of step 107. Rank 2's prefetch thread dies with
# UnicodeDecodeError (printed by threading.excepthook, no [rankN] prefix); rank 2's main
# thread then blocks forever on queue.get(), the other ranks time out (20 s) in the
# all-reduce of step 106/107 and torchrun tears everything down.
set -u
NAME=009_prefetch_thread_dies
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python $R1/gen/make_jsonl_shards.py data 4 6400 --break 2:$((106*32+20)):bad_utf8 >/dev/null
export PYTHONUNBUFFERED=1
timeout 180 $PY/torchrun --nproc-per-node 4 --master-port 29609 train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
