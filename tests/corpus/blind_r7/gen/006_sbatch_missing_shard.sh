#!/bin/bash
R=/work/blind/r7/runs/006_sbatch_missing_shard; rm -rf $R; mkdir -p $R/data; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
# "preprocessing" output: shard 2 never got renamed from its temp name
/work/blind/venv/bin/python - <<'PY'
import torch
for r in range(4):
    name = f"/work/blind/r7/runs/006_sbatch_missing_shard/data/train-{r:05d}-of-00004.pt"
    if r == 2: name += ".tmp.4711"
    torch.save({"x": torch.randn(256, 128), "y": torch.randint(0, 4, (256,))}, name)
PY
ls data
JID=$(sbatch --parsable /work/blind/r7/gen/006_sbatch_missing_shard.sbatch)
while squeue -h -j $JID 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JID finished"
