#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 035_sbatch_silent_hang_time_limit
python $R/gen/mkdata.py data 4 --n 4000
mkfifo $WD/.index.lock   # a shard index read that never returns
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J dpo-run7
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH --time=00:02:00
#SBATCH -o $RUN/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31350 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
srun --label python $T --data data --steps 3000 --log-every 10 --timeout 1800 --fault hang_read --fault-rank 2 --fault-step 94 --fault-arg $WD/.index.lock
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J; waitjob $J
