#!/bin/bash
# shard train-00001.jsonl was exported by a newer preprocessing version that writes "text" instead of "input_ids".
# rank 1 reads it. torchrun --log-dir --redirects 3 (per-rank stdout/stderr files); paste = the log dir + launcher console.
source /work/blind/r25/gen/common.sh
newrun 004_jsonl_schema
$PY $R25/gen/make_data.py $W/data/train --shards 4 --samples 128 --format jsonl --damage 1:schema_text
$PY $R25/gen/make_data.py $W/data/val --shards 4 --samples 32 --format jsonl --seed 99
base_config config.toml
$TORCHRUN --nproc-per-node 4 --master-port 30040 --log-dir $OUT/logs --redirects 3 \
   -m tinylm.train --config config.toml > $OUT/launcher.log 2>&1
echo rc=$?
