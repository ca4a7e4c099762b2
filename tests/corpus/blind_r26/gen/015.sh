#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 015_sbatch_requeue_preempted
python $R/gen/mkdata.py data 4 --n 4000
mkdir -p ckpt
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J sft-low-prio
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH --requeue
#SBATCH --signal=B:TERM@30
#SBATCH -o $RUN/slurm-%j.out
#SBATCH --open-mode=append
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31150 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
echo "[\$(date -Is)] job \$SLURM_JOB_ID restart_count=\${SLURM_RESTART_COUNT:-0}"
srun --label python $T --data data --steps 3000 --log-every 20 --step-sleep 0.1 --ckpt-dir ckpt --ckpt-every 100 --resume-latest --handle-sigterm
echo "[\$(date -Is)] srun exited with \$?"
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J
until grep -q "step 200 " $RUN/slurm-$J.out 2>/dev/null; do sleep 2; done
sleep 5
echo "requeue $(date -Is)"; scontrol requeue $J
sleep 20; squeue -j $J; scontrol show job $J | grep -i "state\|reason\|restart"
scancel $J   # run 015: requeued copy cancelled while still pending (BeginTime), so the log holds one incarnation
