#!/bin/bash
# model.fused_ops = true imports the compiled extension tinylm_fused from the node's site dir. Node 1's copy was
# built against another torch and references c10::cuda::getCurrentCUDAStream -> ImportError (undefined symbol)
# on rank 1 before init_process_group; ranks 0,2,3 wait for it in the store until the 30 s timeout.
# 4 single-process "nodes" (torchrun agents, static rendezvous, node-rank n = rank n).
# paste = logs/node0.log .. node3.log
source /work/blind/r25/gen/common.sh
newrun 023_stale_extension_node1
make_data
MAX_STEPS=80 EVAL_EVERY=40 CKPT_EVERY=40 base_config config.toml
sed -i 's/^seq_len = 64/seq_len = 64\nfused_ops = true/' config.toml
bash $R25/gen/ext/build.sh
mkdir -p $OUT/logs
for n in 0 1 2 3; do
  mkdir -p $W/node${n}_site
  if [ $n = 1 ]; then cp $R25/gen/ext/stale/*.so $W/node${n}_site/; else cp $R25/gen/ext/good/*.so $W/node${n}_site/; fi
  PYTHONPATH=$R25/gen:$W/node${n}_site $TORCHRUN --nnodes 4 --node-rank $n --nproc-per-node 1 --master-addr 127.0.0.1 --master-port 30230 \
     -m tinylm.train --config config.toml > $OUT/logs/node$n.log 2>&1 &
done
wait
