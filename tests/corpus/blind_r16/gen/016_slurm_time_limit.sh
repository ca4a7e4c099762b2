#!/bin/bash
# sbatch -t 1 (one minute), srun 3 tasks, training far longer than the limit -> Slurm cancels at time limit
NAME=016_slurm_time_limit; source /work/blind/r16/gen/common.sh
cat > long.sbatch <<EOS
#!/bin/bash
#SBATCH -J long-pretrain
#SBATCH -n 3
#SBATCH -t 1
export MASTER_PORT=21016 STEPS=1000000 STEP_SLEEP=0.2 LOG_EVERY=25 LOGFMT=logging
srun -l $GEN/slurm_env.sh $PY $TRAIN
EOS
sbatch --wait long.sbatch; rm long.sbatch
