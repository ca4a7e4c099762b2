#!/bin/bash
# sbatch, one output file for the whole job (slurm-%j.out), srun --label --kill-on-bad-exit=1 inside.
R=/work/blind/r11; RUN=$R/runs/011_ckpt_thread_json
rm -rf $RUN $R/scratch/011 && mkdir -p $RUN && cd $RUN
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 150 sbatch --wait --chdir=$RUN $R/gen/011_ckpt_thread_json.sbatch
rm -rf $R/scratch/011
