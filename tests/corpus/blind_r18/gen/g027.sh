#!/bin/bash
# torchrun --standalone --tee 2 --log-dir (only stderr tee'd to the console). A greedy packing collate_fn never
# pops a zero-length document from its queue: rank 3's shard has an empty document (index 517, batch 10), so that
# loader worker spins forever; with DataLoader(timeout=10) rank 3 raises "DataLoader timed out after 10 seconds"
# and exits; ranks 0-2, waiting in the all_reduce (30 s pg timeout), lose their peer.
source /work/blind/r18/gen/common.sh
newrun 027_packing_collate_spin
export PG_TIMEOUT=30
$TORCHRUN --standalone --nproc-per-node 4 --tee 2 --log-dir tr_logs $GEN/p027_packing.py > stderr_console.txt 2>&1
echo "rc=$?"
