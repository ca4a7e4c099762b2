#!/bin/bash
# The team's train.sh: plain `python -m torch.distributed.run`, console tee'd to a file.
R=/work/blind/r11; RUN=$R/runs/009_missing_shard_tqdm; S=$R/scratch/009
rm -rf $RUN $S && mkdir -p $RUN $S && cd $RUN
# token shards + index; the sync to this filesystem skipped shard 7 (listed in the index, never copied)
/work/blind/venv/bin/python - <<'PY'
import numpy as np
S="/work/blind/r11/scratch/009"; rng=np.random.default_rng(0)
names=[f"tokens-{i:05d}.npy" for i in range(12)]
for i,n in enumerate(names):
    if i==7: continue
    np.save(f"{S}/{n}", rng.integers(0,1000,size=12000).astype(np.uint16))
open(f"{S}/index.txt","w").write("\n".join(names)+"\n")
PY
set -o pipefail
export OMP_NUM_THREADS=1 DATA_INDEX=$S/index.txt PYTHONPATH=$R/pylib
echo "[train.sh] $(date -Is) launching on $(hostname) with 4 procs"
timeout 90 /work/blind/venv/bin/python -m torch.distributed.run --nproc-per-node=4 --master-addr=127.0.0.1 --master-port=31109 \
  $R/gen/009_missing_shard_tqdm.py 2>&1 | tee console.log
echo "[train.sh] exit code $?"
rm -rf $S
