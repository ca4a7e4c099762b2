#!/bin/bash
# A previous run of the same experiment (same launch script, same --master-port 30240) is still running on the
# node (its job step was never cleaned up). The new launch's torchrun agent cannot bind the store port.
# paste = the new launch's console (stdout+stderr).
source /work/blind/r25/gen/common.sh
newrun 024_port_in_use
make_data
MAX_STEPS=2000 EVAL_EVERY=200 CKPT_EVERY=500 base_config config.toml
mkdir -p old
$TORCHRUN --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 30240 -m tinylm.train --config config.toml > old/console.log 2>&1 &
OLD=$!
sleep 8
$TORCHRUN --nnodes 1 --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 30240 -m tinylm.train --config config.toml > $OUT/console.log 2>&1
echo rc=$?
kill -TERM $OLD; wait $OLD
