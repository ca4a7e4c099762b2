#!/bin/bash
R=/work/blind/r9/runs/017_slurm_timelimit; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 200 sbatch --wait /work/blind/r9/gen/017_slurm_timelimit.sbatch
