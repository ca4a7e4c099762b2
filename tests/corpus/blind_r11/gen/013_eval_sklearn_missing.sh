#!/bin/bash
# sbatch; per-task stdout/stderr files via srun --output/--error with %t, batch output separate. Slim
# runtime image (no scikit-learn installed).
R=/work/blind/r11; RUN=$R/runs/013_eval_sklearn_missing
rm -rf $RUN && mkdir -p $RUN/logs && cd $RUN
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 150 sbatch --wait --chdir=$RUN $R/gen/013_eval_sklearn_missing.sbatch
