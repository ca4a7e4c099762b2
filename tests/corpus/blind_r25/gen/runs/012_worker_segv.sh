#!/bin/bash
# packed .rec shards; one index entry of shard train-00003 points far outside the file (bad merge).
# The zero-copy decoder reads through it and the DataLoader worker of rank 3 dies with SIGSEGV.
# torchrun 4 ranks; the job logs INFO to stdout, and the user pasted only stderr (2> file).
source /work/blind/r25/gen/common.sh
newrun 012_worker_segv
$PY $R25/gen/make_data.py $W/data/train --shards 4 --samples 128 --format rec --damage 3:bad_record >/dev/null
$PY $R25/gen/make_data.py $W/data/val --shards 4 --samples 32 --seed 99 >/dev/null
MAX_STEPS=80 EVAL_EVERY=40 CKPT_EVERY=40 base_config config.toml
cat >> config.toml <<EOT

[log]
stream = "stdout"
EOT
$TORCHRUN --nproc-per-node 4 --master-port 30120 -m tinylm.train --config config.toml > $W/stdout.log 2> $OUT/stderr.log
echo rc=$?
