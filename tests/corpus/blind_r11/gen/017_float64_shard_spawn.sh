#!/bin/bash
# python + torch.multiprocessing.spawn (4 workers); console plus per-rank log files under logs/.
R=/work/blind/r11; RUN=$R/runs/017_float64_shard_spawn; S=$R/scratch/017
rm -rf $RUN $S && mkdir -p $RUN $S && cd $RUN
# shards exported by the feature pipeline (float32); epoch1-part2 was re-exported by hand from a pandas
# notebook after a fix, without the astype(float32)
/work/blind/venv/bin/python - <<'PY'
import numpy as np
S="/work/blind/r11/scratch/017"; rng=np.random.default_rng(11)
for e in range(3):
    for r in range(4):
        a = rng.standard_normal((640, 32))
        if not (e == 1 and r == 2): a = a.astype(np.float32)
        np.save(f"{S}/epoch{e}-part{r}.npy", a)
PY
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/python $R/gen/017_float64_shard_spawn.py --data $S --world 4 --port 31117 > console.log 2>&1
rm -rf $S
