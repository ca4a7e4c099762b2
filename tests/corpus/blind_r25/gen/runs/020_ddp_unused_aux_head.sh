#!/bin/bash
# Same aux document-boundary head, now under DDP (find_unused_parameters=False). Shard train-00001 was packed
# without EOS tokens, so on rank 1 the aux head takes no part in the loss: rank 1's reducer never finishes the
# bucket holding it. torchrun 2 "nodes" x 2 procs (rank 1 is on node 0).
# paste = node0.log, node1.log
source /work/blind/r25/gen/common.sh
newrun 020_ddp_unused_aux_head
make_data --damage 1:no_eos
MAX_STEPS=80 EVAL_EVERY=40 CKPT_EVERY=40 base_config config.toml
sed -i 's/^seq_len = 64/seq_len = 64\naux_head = true/' config.toml
for n in 0 1; do
  $TORCHRUN --nnodes 2 --node-rank $n --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 30200 \
     -m tinylm.train --config config.toml > $OUT/node$n.log 2>&1 &
done
wait
