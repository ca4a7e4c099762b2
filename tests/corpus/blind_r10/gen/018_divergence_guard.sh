#!/bin/bash
R=/work/blind/r10/runs/018_divergence_guard; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
sbatch --wait -D $R /work/blind/r10/gen/018_divergence_guard.sbatch
echo "rc=$?"
