#!/bin/bash
# plain `python -m torch.distributed.run`, 4 ranks, no --tee
R=/work/blind/r3/runs/003_moe_grad_assert; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job003; mkdir -p $J; cp /work/blind/r3/gen/003_moe_grad_assert.py $J/moe_train.py
cd $J
/work/blind/venv/bin/python -m torch.distributed.run --nproc_per_node=4 --master_port=29503 \
  moe_train.py > $R/console.log 2>&1
echo "exit $?"
