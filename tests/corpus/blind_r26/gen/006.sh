#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 006_srun_nolabel_dtype
python $R/gen/mkdata.py data 4 --n 2000 --f64 1:700
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J cls-finetune
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH -o $RUN/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31060 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
srun --kill-on-bad-exit=1 python $T --data data --steps 150 --log-every 10 --log-style hf --timeout 60
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J; waitjob $J
