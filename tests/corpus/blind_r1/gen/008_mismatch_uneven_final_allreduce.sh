#!/usr/bin/env bash
# torchrun 4 ranks, no TORCH_DISTRIBUTED_DEBUG, with --log-dir/--tee 3. Rank 1's shard has
# 3900 samples (121 batches) vs 6400 (200) elsewhere. After its last batch rank 1 calls the
# end-of-epoch all_reduce of a 2-element stats tensor while ranks 0,2,3 are in DDP's
# gradient-bucket all_reduce of step 122 -> mismatched collectives.
set -u
NAME=008_mismatch_uneven_final_allreduce
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/data"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python - <<'PYEOF'
import torch
for r, n in enumerate([6400, 3900, 6400, 6400]):
    g = torch.Generator().manual_seed(300 + r)
    x = torch.randn(n, 12, generator=g)
    y = (x[:, :4] ** 2).sum(1, keepdim=True) - 4
    torch.save({"x": x, "y": y}, f"data/part{r}.pt")
PYEOF
timeout 180 $PY/torchrun --nproc-per-node 4 --master-port 29608 --log-dir $WORK/logs --tee 3 \
    train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
cp -r $WORK/logs $RUN/logs
