#!/bin/bash
# shard01.idx was cut short by an interrupted upload (2100 of 3001 offsets), shard01.bin is complete
R=/work/blind/r13/runs/010_restarts_truncated_index
D=/tmp/r13_010_data
rm -rf $R $D && mkdir -p $R/job $D && cd $R/job
/work/blind/venv/bin/python - <<'PY'
import numpy as np
for r in range(3):
    rng = np.random.default_rng(r)
    lens = rng.integers(20, 60, size=3000)
    off = np.concatenate([[0], np.cumsum(lens)]).astype("<u8")
    rng.integers(0, 512, size=int(off[-1])).astype(np.uint16).tofile(f"/tmp/r13_010_data/shard{r:02d}.bin")
    if r == 1: off = off[:2100]
    off.tofile(f"/tmp/r13_010_data/shard{r:02d}.idx")
PY
export OMP_NUM_THREADS=1
timeout 150 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:33010 \
  --max-restarts 2 --log-dir $R/job/logs --tee 3 /work/blind/r13/gen/010_restarts_truncated_index.py > $R/job/torchrun.out 2>&1
echo "torchrun rc=$?" >> $R/job/torchrun.out
cd $R && tar czf pretrain_run.tar.gz job && rm -rf job $D
