#!/bin/bash
# Resume job. Checkpoints are copied to a node-local cache ($TINYLM_CACHE) before loading. Node "c"'s cache
# still holds model.pt of an older 3-layer experiment under the same <run>/step_000040 path, so the rank on
# that node loads a stale state dict (unexpected keys blocks.layers.2.*) and dies; the others resumed fine
# and then lose it in the first all_reduce.
# phase 1 (not pasted): 40 steps, checkpoint at step 40. phase 2 (pasted): 4 torchrun agents, one process
# each, c10d rendezvous (so node->rank is decided at rendezvous). paste = logs/node-{a,b,c,d}.log of phase 2.
source /work/blind/r25/gen/common.sh
newrun 017_stale_ckpt_cache
make_data
MAX_STEPS=120 EVAL_EVERY=50 CKPT_EVERY=40 base_config config.toml
sed -i "s|^dir = \"$W/ckpt\"|dir = \"$W/ckpt/tinylm-ablation\"\ncache = \"\$TINYLM_CACHE\"|" config.toml
# the older experiment whose checkpoint is still cached on node c
mkdir -p old && sed "s|$W/ckpt/tinylm-ablation|$W/old/tinylm-ablation|; s/^n_layers = 2/n_layers = 3/; s/^max_steps = 120/max_steps = 40/" config.toml > old/config.toml
TINYLM_CACHE=$W/none $TORCHRUN --nproc-per-node 2 --master-port 30170 -m tinylm.train --config old/config.toml > old/console.log 2>&1
mkdir -p $W/cache_c/tinylm-ablation/step_000040 && cp old/tinylm-ablation/step_000040/model.pt $W/cache_c/tinylm-ablation/step_000040/
# phase 1 of the current experiment
TINYLM_CACHE=$W/cache_a $TORCHRUN --nproc-per-node 4 --master-port 30171 -m tinylm.train --config config.toml --set run.max_steps=40 > phase1.log 2>&1
echo phase1 rc=$?
mkdir -p $OUT/logs
for n in a b c d; do
  TINYLM_CACHE=$W/cache_$n $TORCHRUN --nnodes 4 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:30172 \
     --rdzv-id tinylm-resume-7731 -m tinylm.train --config config.toml --set run.resume='"auto"' > $OUT/logs/node-$n.log 2>&1 &
  sleep 0.5
done
wait
