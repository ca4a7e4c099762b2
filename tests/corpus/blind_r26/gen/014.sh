#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 014_sbatch_torchrun_time_limit
python $R/gen/mkdata.py data 4 --n 4000
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J pretrain-long
#SBATCH -N 1
#SBATCH -n 1
#SBATCH -c 2
#SBATCH --time=00:01:00
#SBATCH -o $RUN/slurm-%j.out
echo "start \$(date -Is) job \$SLURM_JOB_ID"
srun torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31140 --rdzv-id \$SLURM_JOB_ID \
   $T --data data --steps 5000 --log-every 20 --step-sleep 0.2 --ckpt-dir ckpt --ckpt-every 100
EOS
mkdir -p ckpt
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J; waitjob $J
