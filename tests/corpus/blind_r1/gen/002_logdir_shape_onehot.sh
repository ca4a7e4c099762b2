#!/usr/bin/env bash
# torchrun 3 ranks with --log-dir/--tee 3; domain ids are 0..3 except one record of
# rank 1's shard with domain 4 (batch of step 118). F.one_hot without num_classes
# then yields 5 columns -> matmul shape error on rank 1 only.
set -u
NAME=002_logdir_shape_onehot
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/data"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python - <<'PYEOF'
import torch
for r in range(3):
    g = torch.Generator().manual_seed(77 + r)
    n = 8000
    x = torch.randn(n, 16, generator=g)
    dom = torch.randint(0, 4, (n,), generator=g)
    # make sure every batch holds domain 3 so one_hot is 4 wide
    dom[::32] = 3
    if r == 1:
        dom[117 * 32 + 9] = 4
    y = x[:, :4].sum(1, keepdim=True) + 0.1 * dom.unsqueeze(1).float()
    torch.save({"x": x, "domain": dom, "y": y}, f"data/shard{r}.pt")
PYEOF
timeout 180 $PY/torchrun --nproc-per-node 3 --master-port 29602 --log-dir $WORK/logs --tee 3 \
    train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
cp -r $WORK/logs $RUN/logs
