#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 025_sbatch_lr_ramp_divergence
python $R/gen/mkdata.py data 4 --n 4000
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J lr-sweep-hi
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH -o $RUN/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31250 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
srun --label --kill-on-bad-exit=1 python $T --data data --steps 400 --log-every 10 --step-sleep 0.02 --lr 0.05 --lr-ramp-to 25 --fault diverge
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J; waitjob $J
