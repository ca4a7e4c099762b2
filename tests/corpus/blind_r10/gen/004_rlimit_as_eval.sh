#!/bin/bash
R=/work/blind/r10/runs/004_rlimit_as_eval; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
sbatch --wait -D $R /work/blind/r10/gen/004_rlimit_as_eval.sbatch
echo "rc=$?"
