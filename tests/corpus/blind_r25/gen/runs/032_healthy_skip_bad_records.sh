#!/bin/bash
# HEALTHY. jsonl shard train-00001 has one truncated line; data.skip_bad_samples=true logs a warning with the
# JSONDecodeError traceback (from the DataLoader worker, once per epoch) and moves on. TORCH_DISTRIBUTED_DEBUG=INFO
# and TORCH_CPP_LOG_LEVEL=INFO add c10d/DDP info lines. torchrun --log-dir --redirects 3 --tee 3.
# paste = console + the log dir
source /work/blind/r25/gen/common.sh
newrun 032_healthy_skip_bad_records
$PY $R25/gen/make_data.py $W/data/train --shards 4 --samples 128 --format jsonl --damage 1:bad_json >/dev/null
$PY $R25/gen/make_data.py $W/data/val --shards 4 --samples 32 --format jsonl --seed 99 >/dev/null
MAX_STEPS=80 EVAL_EVERY=40 CKPT_EVERY=40 LOG_EVERY=10 base_config config.toml
sed -i 's/^num_workers = 2/num_workers = 2\nskip_bad_samples = true/' config.toml
TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO $TORCHRUN --nproc-per-node 4 --master-port 30320 --log-dir $OUT/logs --redirects 3 --tee 3 \
   -m tinylm.train --config config.toml > $OUT/console.log 2>&1
echo rc=$?
