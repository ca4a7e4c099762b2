#!/bin/bash
# sbatch; batch output %x-%j.out, per-task outputs %x-%j-%t.out via srun -o.
R=/work/blind/r11; RUN=$R/runs/020_healthy_cache_wait_skip
rm -rf $RUN $R/scratch/020 && mkdir -p $RUN && cd $RUN
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 150 sbatch --wait --chdir=$RUN $R/gen/020_healthy_cache_wait_skip.sbatch
rm -rf $R/scratch/020
