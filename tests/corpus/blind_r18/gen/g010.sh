#!/bin/bash
# two torchrun agents (2 "nodes" x 2). Each rank reads shard files i::4; shard_0007.npy (second file of rank 3,
# read at the start of its epoch-0 second file) was written by another user's preprocessing job with mode 0600.
# Node 1's agent runs without CAP_DAC_OVERRIDE (like a non-root user), so rank 3 gets
# PermissionError: [Errno 13]; the others lose their peer.
source /work/blind/r18/gen/common.sh
newrun 010_shard_permission_denied
mkdir -p $WORK/data
$PY -c "
import numpy as np
for i in range(8):
    g = np.random.default_rng(i)
    np.save('$WORK/data/shard_%04d.npy' % i, g.standard_normal((64, 33)).astype('float32'))
"
chown 4242:4242 $WORK/data/shard_0007.npy; chmod 600 $WORK/data/shard_0007.npy
export DATA_ROOT=$WORK/data
$TORCHRUN --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 23010 --tee 3 --log-dir node0_logs $GEN/p010_shards.py > node0.console 2>&1 &
A=$!
setpriv --bounding-set -dac_override,-dac_read_search -- $TORCHRUN --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 23010 --redirects 3 --log-dir node1_logs $GEN/p010_shards.py > node1.console 2>&1 &
B=$!
wait $A; echo "node0 rc=$?"; wait $B; echo "node1 rc=$?"
