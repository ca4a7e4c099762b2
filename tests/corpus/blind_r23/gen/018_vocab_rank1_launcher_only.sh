#!/bin/bash
# 018: torchrun 3 ranks, --log-dir + --redirects 3, entry point wrapped in
# @record. shard_00004 was re-tokenized with a newer 1024-entry tokenizer while
# the model has a 512 vocab; in streaming mode rank 1 reaches that shard (its
# 2nd) at ~step 78 and the embedding lookup fails (index out of range).
# The user only has the launcher's stderr (the per-rank files stay in work/).
set -u
R=/work/blind/r23; RUN=$R/runs/018_vocab_rank1_launcher_only; rm -rf $RUN; mkdir -p $RUN
cd $R/work; rm -rf $R/work/logs018
timeout 200 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --log-dir $R/work/logs018 --redirects 3 \
  $R/gen/record_main.py --data-dir data/vocab018 --stream --steps 300 --eval-every 50 --ckpt-every 0 \
  --timeout 30 > /dev/null 2> $RUN/torchrun_stderr.txt
echo rc=$?
