#!/usr/bin/env bash
# srun --label -n 4 --kill-on-bad-exit=1 on a private one-node Slurm (see slurm_up.sh).
# Every rank loads its own per-rank checkpoint file; rank 2's file comes from an older
# experiment with hidden=96, so rank 2's load_state_dict raises size-mismatch errors while
# ranks 0,1,3 load fine and wait in DDP's constructor broadcast; srun then kills the step.
set -u
NAME=011_srun_resume_mismatch
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
export SLURM_CONF=/work/blind/slurm/slurm.conf
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/ckpt/step_000400"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python - <<'PYEOF'
import sys, torch
sys.path.insert(0, ".")
from train import build_model
for r in range(4):
    torch.manual_seed(3)
    m = build_model(96 if r == 2 else 64)
    torch.save({"model": m.state_dict(), "step": 400}, f"ckpt/step_000400/model_rank{r}.pt")
PYEOF
export PYTHONUNBUFFERED=1
timeout 180 srun --label -J mlp-resume -n 4 --kill-on-bad-exit=1 $PY/python train.py --ckpt $WORK/ckpt 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
