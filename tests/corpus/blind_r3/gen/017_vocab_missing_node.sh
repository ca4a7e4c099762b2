#!/bin/bash
# two `python -m torch.distributed.run` agents (--nnodes 2, static), one console per node.
R=/work/blind/r3/runs/017_vocab_missing_node; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job017; rm -rf $J; mkdir -p $J/node0/tokenizer $J/node1/tokenizer
cp /work/blind/r3/gen/017_vocab_missing_node.py $J/train_bow.py
/work/blind/venv/bin/python -c "import json; json.dump({f'w{i}': i for i in range(1000)}, open('$J/node0/tokenizer/vocab.json','w'))"
echo '{"model_max_length": 512}' | tee $J/node0/tokenizer/tokenizer_config.json > $J/node1/tokenizer/tokenizer_config.json
cd $J
PY=/work/blind/venv/bin/python
COMMON="--nnodes=2 --nproc_per_node=2 --master_addr=127.0.0.1 --master_port=29517"
NODE_LOCAL=$J/node0 $PY -m torch.distributed.run $COMMON --node_rank=0 train_bow.py > $R/node0.log 2>&1 &
P0=$!
NODE_LOCAL=$J/node1 $PY -m torch.distributed.run $COMMON --node_rank=1 train_bow.py > $R/node1.log 2>&1 &
P1=$!
wait $P0; echo "node0 exit $?"; wait $P1; echo "node1 exit $?"
