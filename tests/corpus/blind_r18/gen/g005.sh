#!/bin/bash
# torchrun --redirects 3 --log-dir. Pre-tokenized shards: rank 2's shard is shorter (13 batches) than the 20
# steps/epoch the job assumes. Rank 2 hits StopIteration, leaves the loop, calls destroy_process_group and
# exits 0; ranks 0,1,3 are in the next gradient all_reduce and fail with the peer gone.
source /work/blind/r18/gen/common.sh
newrun 005_uneven_shard_early_exit
mkdir -p $WORK/shards
$PY -c "
import torch
for r in range(4):
    n = 13*16 if r == 2 else 20*16
    g = torch.Generator().manual_seed(r)
    torch.save({'x': torch.randn(n, 32, generator=g), 'y': torch.randint(0, 4, (n,), generator=g)}, '$WORK/shards/shard-%05d-of-00004.pt' % r)
"
export SHARD_DIR=$WORK/shards
$TORCHRUN --nproc-per-node 4 --master-port 23005 --redirects 3 --log-dir torchrun_logs $GEN/p005_uneven.py > launcher.out 2>&1
echo "rc=$?"
