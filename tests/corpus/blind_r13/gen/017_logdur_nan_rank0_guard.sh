#!/bin/bash
# events-3.npz contains a clock-skewed event with a negative dwell duration (-0.4 s) in the batch of step 88
R=/work/blind/r13/runs/017_logdur_nan_rank0_guard
rm -rf $R /tmp/r13_017 && mkdir -p $R/logs /tmp/r13_017 && cd $R
/work/blind/venv/bin/python - <<'PY'
import numpy as np
for r in range(4):
    g = np.random.default_rng(r)
    dur = g.lognormal(1.0, 0.8, 4800).astype(np.float32)
    if r == 3: dur[87 * 32 + 5] = -0.4
    np.savez(f"/tmp/r13_017/events-{r}.npz", duration_s=dur, feats=g.normal(size=(4800, 8)).astype(np.float32),
             click=(g.random(4800) < 0.2).astype(np.float32))
PY
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 150 sbatch --wait /work/blind/r13/gen/017_logdur_nan_rank0_guard.sbatch > /dev/null 2>&1
rm -rf /tmp/r13_017
