#!/bin/bash
# sbatch; the batch script's output in %x-%j.out, each task's output in %x-%j-%t.out (srun -o).
R=/work/blind/r11; RUN=$R/runs/006_masked_loss_nan_clip
rm -rf $RUN && mkdir -p $RUN && cd $RUN
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 120 sbatch --wait --chdir=$RUN $R/gen/006_masked_loss_nan_clip.sbatch
