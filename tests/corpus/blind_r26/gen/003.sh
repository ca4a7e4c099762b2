#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 003_sbatch_label_prefetch_thread
python $R/gen/mkdata.py data 4 --n 2000 --badlabel 1:650
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J tinylm-pretrain
#SBATCH -N 1
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH -o $RUN/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31030 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun --label python $T --data data --steps 150 --log-every 10 --prefetch-thread --timeout 45
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J
# the on-call notices the job sitting there after the timeouts and cancels it
until grep -q "srun: error" $RUN/slurm-$J.out 2>/dev/null; do sleep 3; done; sleep 60
squeue -h -j $J | grep -q . && scancel $J
waitjob $J; sacct -j $J --format=JobID,JobName,State,ExitCode,Elapsed
