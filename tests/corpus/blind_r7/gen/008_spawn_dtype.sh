#!/bin/bash
R=/work/blind/r7/runs/008_spawn_dtype; rm -rf $R; mkdir -p $R/feats; cd $R
export OMP_NUM_THREADS=1 RUN_DIR=$R
/work/blind/venv/bin/python - <<'PY'
import numpy as np
d = "/work/blind/r7/runs/008_spawn_dtype/feats"
for r in range(4):
    f = np.random.randn(480, 48)
    # parts 0-2 were re-exported as float32; part 3 is the stale float64 export
    np.save(f"{d}/part{r}.npy", f if r == 3 else f.astype(np.float32))
    np.save(f"{d}/labels{r}.npy", np.random.randint(0, 3, 480))
PY
timeout 90 /work/blind/venv/bin/python /work/blind/r7/gen/008_spawn_dtype.py > $R/console.txt 2>&1
echo "exit=$?"
