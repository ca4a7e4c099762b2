source /work/blind/r29/gen/lib.sh; mk 028; cd $RAW/028
# sbatch --time=2 --signal=B:USR1@30: batch shell traps USR1, forwards it to srun; ranks write an emergency checkpoint and exit
cat > job.sbatch <<'SB'
#!/bin/bash
#SBATCH -J ft-usr1
#SBATCH -n 4
#SBATCH --time=2
#SBATCH --signal=B:USR1@30
#SBATCH -o /work/blind/r29/gen/raw/028/ft-usr1-%j.out
export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=35280 PYTHONUNBUFFERED=1 USR1_CKPT=1
export LOGFMT=iso EPOCHS=20 STEPS=400 LOG_EVERY=10 STEP_SLEEP=0.03 CKPT_EVERY=300 CKPT_DIR=/work/blind/r29/gen/raw/028/ckpt
handler() { echo "$(date -Is) batch: caught SIGUSR1 (time limit approaching), forwarding to srun pid $SRUN_PID"; kill -USR1 $SRUN_PID; }
trap handler USR1
srun --label -n 4 /work/blind/venv/bin/python /work/blind/r29/gen/train.py &
SRUN_PID=$!
wait $SRUN_PID; rc=$?
if [ $rc -gt 128 ]; then wait $SRUN_PID; rc=$?; fi
echo "$(date -Is) batch: srun exited $rc; not requeueing automatically (requeue disabled for this partition)"
SB
J=$(sbatch --parsable job.sbatch); echo $J > jobid
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
scontrol show job $J > job.txt; cp ft-usr1-$J.out $RUNS/028/
