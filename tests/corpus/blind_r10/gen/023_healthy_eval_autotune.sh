#!/bin/bash
R=/work/blind/r10/runs/023_healthy_eval_autotune; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
sbatch --wait -D $R /work/blind/r10/gen/023_healthy_eval_autotune.sbatch
echo "rc=$?"
