#!/bin/bash
R=/work/blind/r10/runs/011_remainder_view; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
timeout 90 srun -N1 -n4 -J kp-seq -o $R/kp-seq.%t.jsonl /work/blind/venv/bin/python /work/blind/r10/gen/011_remainder_view.py > $R/srun.console 2>&1
echo "rc=$?"
