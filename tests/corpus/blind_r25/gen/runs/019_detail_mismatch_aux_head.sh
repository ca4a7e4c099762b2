#!/bin/bash
# Model has an auxiliary document-boundary head, trained only on batches that contain EOS tokens.
# Gradients are averaged by hand (no DDP): all_reduce over params whose .grad is not None.
# Shard train-00003 was packed without EOS tokens, so on rank 3 the aux head never gets a grad and rank 3
# issues 2 fewer all_reduces per step -> the collective sequence diverges on the very first step.
# TORCH_DISTRIBUTED_DEBUG=DETAIL is on (fine without DDP). torchrun 4 ranks, hydra-style log format (no rank in
# the format). paste = whole console.
source /work/blind/r25/gen/common.sh
newrun 019_detail_mismatch_aux_head
make_data --damage 3:no_eos
MAX_STEPS=80 EVAL_EVERY=40 CKPT_EVERY=40 base_config config.toml
sed -i 's/^seq_len = 64/seq_len = 64\naux_head = true/; s/^timeout_s = .*/timeout_s = 30\nddp = false/' config.toml
cat >> config.toml <<EOT

[log]
style = "hydra"
EOT
TORCH_DISTRIBUTED_DEBUG=DETAIL $TORCHRUN --nproc-per-node 4 --master-port 30190 -m tinylm.train --config config.toml > $OUT/console.log 2>&1
echo rc=$?
