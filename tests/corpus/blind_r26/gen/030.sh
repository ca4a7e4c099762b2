#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 030_healthy_sbatch_label_ckpt
python $R/gen/mkdata.py data 4 --n 2000
mkdir -p ckpt
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J mlp-baseline
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH --time=00:10:00
#SBATCH -o $RUN/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31300 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
echo "[\$(date -Is)] job \$SLURM_JOB_ID start"
srun --label --kill-on-bad-exit=1 python $T --data data --steps 200 --log-every 20 --ckpt-dir ckpt --ckpt-every 50
echo "[\$(date -Is)] srun exit \$?"
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J; waitjob $J
