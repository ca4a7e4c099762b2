#!/bin/bash
R=/work/blind/r6/runs/013_emfile_handle_cache; rm -rf $R; mkdir -p $R/data
export SLURM_CONF=/work/blind/slurm/slurm.conf
/work/blind/venv/bin/python - <<PY
import numpy as np, os
R="$R/data"
for r in (0, 2, 3):
    os.makedirs(f"{R}/merged_{r}")
    for i in range(48): np.random.randn(4096).astype("float32").tofile(f"{R}/merged_{r}/part-{i:04d}.bin")
os.makedirs(f"{R}/crawl_dump")
for i in range(600): np.random.randn(64).astype("float32").tofile(f"{R}/crawl_dump/doc-{i:06d}.bin")
PY
cd $R
jid=$(sbatch --parsable /work/blind/r6/gen/013_emfile_handle_cache.sbatch)
for i in $(seq 90); do squeue -h -j $jid 2>/dev/null | grep -q . || break; sleep 1; done
echo "jobid=$jid" > $R/jobid
rm -rf $R/data
