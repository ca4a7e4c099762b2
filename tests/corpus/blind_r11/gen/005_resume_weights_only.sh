#!/bin/bash
# torchrun with --log-dir and --redirects 3 (rank output only in the per-rank files, not on the console).
R=/work/blind/r11; RUN=$R/runs/005_resume_weights_only; S=$R/scratch/005
rm -rf $RUN $S && mkdir -p $RUN $S && cd $RUN
# the checkpoint written by the previous run's trainer (it stored its argparse args alongside the weights)
/work/blind/venv/bin/python - <<'PY'
import argparse, torch, torch.nn as nn
m = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
o = torch.optim.AdamW(m.parameters(), lr=1e-4)
m(torch.randn(4, 20)).sum().backward(); o.step()
a = argparse.Namespace(lr=1e-4, batch_size=32, warmup=100, data="/datasets/sst2", seed=17)
torch.save({"model": m.state_dict(), "optimizer": o.state_dict(), "step": 1200, "args": a}, "/work/blind/r11/scratch/005/step_1200.pt")
PY
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 31105 \
  --log-dir $RUN/logs --redirects 3 \
  $R/gen/005_resume_weights_only.py --resume $S/step_1200.pt --steps 40 > console.log 2>&1
rm -rf $S
