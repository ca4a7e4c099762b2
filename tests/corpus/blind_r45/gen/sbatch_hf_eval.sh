#!/bin/bash
#SBATCH --job-name=bert-eval
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --output=slurm-%j.out
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 HF_HUB_OFFLINE=1
echo "eval job $SLURM_JOB_ID starting at $(date -Is)"
srun /work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 54117 /work/blind/r45/set/gen/hf_train.py --mode eval_only --out /work/blind/r45/work/hf_eval
echo "eval job done rc=$?"
