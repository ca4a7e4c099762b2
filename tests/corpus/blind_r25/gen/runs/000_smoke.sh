#!/bin/bash
source /work/blind/r25/gen/common.sh
newrun 000_smoke
make_data
base_config config.toml
time $TORCHRUN --nproc-per-node 4 --master-port 30000 -m tinylm.train --config config.toml > console.log 2>&1
echo rc=$?
