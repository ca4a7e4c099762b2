#!/bin/bash
# torchrun (console only). Rank 0 loads a pretrained checkpoint that pickles a custom dataclass (TrainConfig)
# next to the state dict; torch.load's default weights_only=True refuses it ("Weights only load failed ...
# Unsupported global"). Ranks 1-3 wait in the parameter broadcast and die with the peer gone / SIGTERM.
source /work/blind/r18/gen/common.sh
newrun 008_pretrained_weights_only
$PY -c "
import torch, trainlib as T, ckpt_tools
torch.save({'model': T.TinyNet().state_dict(), 'config': ckpt_tools.TrainConfig(tags=['v3'])}, '$WORK/pretrained_v3.pt')
"
export INIT_FROM=$WORK/pretrained_v3.pt
$TORCHRUN --standalone --nproc-per-node 4 $GEN/p008_pretrained.py 2>&1 | tee console.txt > /dev/null
echo "rc=${PIPESTATUS[0]}"
