#!/bin/bash
# two 'nodes' (two torchrun agents, c10d rendezvous); node gpu-b07's image still has trainkit 0.3.1,
# which predates trainkit.losses.ChunkedCrossEntropy (added in 0.4.0)
R=/work/blind/r13/runs/005_node_pkg_version
W=/tmp/r13_005; rm -rf $R $W && mkdir -p $R/job_5521 $W/nodeA/trainkit $W/nodeB/trainkit
cat > $W/nodeA/trainkit/__init__.py <<'PY'
__version__ = "0.4.2"
PY
cat > $W/nodeA/trainkit/losses.py <<'PY'
import torch
class ChunkedCrossEntropy(torch.nn.Module):
    def __init__(self, chunk=1024):
        super().__init__(); self.chunk = chunk
    def forward(self, logits, target):
        tot = sum(torch.nn.functional.cross_entropy(l, t, reduction="sum")
                  for l, t in zip(logits.split(self.chunk), target.split(self.chunk)))
        return tot / target.numel()
PY
cat > $W/nodeB/trainkit/__init__.py <<'PY'
__version__ = "0.3.1"
PY
cat > $W/nodeB/trainkit/losses.py <<'PY'
import torch
def label_smoothed_nll_loss(lprobs, target, eps):
    nll = -lprobs.gather(dim=-1, index=target.unsqueeze(-1)).squeeze(-1)
    smooth = -lprobs.sum(dim=-1)
    return ((1.0 - eps) * nll + eps / lprobs.size(-1) * smooth).mean()
PY
cd $R/job_5521
export OMP_NUM_THREADS=1
COMMON="--nnodes 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:33005 --rdzv-id job5521 /work/blind/r13/gen/005_node_pkg_version.py"
FAKE_HOST=gpu-a03 PYTHONPATH=$W/nodeA timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 2 $COMMON > gpu-a03.log 2>&1 &
sleep 2
FAKE_HOST=gpu-b07 PYTHONPATH=$W/nodeB timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 1 $COMMON > gpu-b07.log 2>&1
echo "agent exit $?" >> gpu-b07.log
wait %1; echo "agent exit $?" >> gpu-a03.log
cd $R && tar czf job_5521.tar.gz job_5521 && rm -rf job_5521 $W
