#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 017_sbatch_deadlock_hang_stackdump
python $R/gen/mkdata.py data 4 --n 4000
mkfifo $WD/metrics.pipe   # the metrics sidecar that should drain this pipe is gone
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J rm-train
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH -o $RUN/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31170 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
srun --label python $T --data data --steps 3000 --log-every 20 --timeout 1800 --fault deadlock --fault-rank 0 --fault-step 113 --fault-arg $WD/metrics.pipe
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J
until grep -q "step 100 " $RUN/slurm-$J.out 2>/dev/null; do sleep 2; done
sleep 120   # no new step lines: the on-call dumps stacks, then cancels
scancel --signal=USR1 $J; sleep 5
scancel $J; waitjob $J
