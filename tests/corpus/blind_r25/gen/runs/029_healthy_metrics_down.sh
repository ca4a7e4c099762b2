#!/bin/bash
# HEALTHY. The metrics gateway is down for the whole run (connection refused): the uploader thread logs a
# warning with the full traceback on every failed attempt, drops batches after 3 tries, and training completes.
# torchrun 4 ranks; paste = whole console.
source /work/blind/r25/gen/common.sh
newrun 029_healthy_metrics_down
make_data
MAX_STEPS=100 EVAL_EVERY=50 CKPT_EVERY=50 LOG_EVERY=10 base_config config.toml
cat >> config.toml <<EOT

[metrics]
endpoint = "http://127.0.0.1:30299/v1/ingest"
batch = 4
timeout = 2
EOT
$TORCHRUN --nproc-per-node 4 --master-port 30290 -m tinylm.train --config config.toml > $OUT/console.log 2>&1
echo rc=$?
