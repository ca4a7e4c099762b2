#!/bin/bash
# torchrun --log-dir with --redirects 1: stdout of each worker to its file, stderr left on the console.
R=/work/blind/r11; RUN=$R/runs/012_feature_dim_logexc; S=$R/scratch/012
rm -rf $RUN $S && mkdir -p $RUN $S && cd $RUN
# feature shards; rank 1's second part was regenerated with the v2 feature spec (one extra column)
/work/blind/venv/bin/python - <<'PY'
import numpy as np
S="/work/blind/r11/scratch/012"; rng=np.random.default_rng(3)
for r in range(3):
    for p in range(3):
        ncol = 34 if (r == 1 and p == 1) else 33
        a = rng.standard_normal((1280, ncol)).astype(np.float32); a[:, -1] = (a[:, 0] > 0)
        np.save(f"{S}/part-r{r}-{p:03d}.npy", a)
PY
export OMP_NUM_THREADS=1 FEATURES=$S
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 31112 \
  --log-dir $RUN/logs --redirects 1 $R/gen/012_feature_dim_logexc.py > console.log 2>&1
rm -rf $S
