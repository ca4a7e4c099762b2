#!/bin/bash
# rank 2's training shard (train-00002) was truncated to 60% by an interrupted upload.
# torchrun, 4 ranks on one node; paste = whole console (stdout+stderr).
source /work/blind/r25/gen/common.sh
newrun 001_shard_truncated
make_data --damage 2:truncate
base_config config.toml
$TORCHRUN --nproc-per-node 4 --master-port 30010 -m tinylm.train --config config.toml > $OUT/console.log 2>&1
echo rc=$?
