source /work/blind/r29/gen/lib.sh; mk 029; cd $RAW/029
# sbatch + srun -n 4 --label; the user runs scancel after ~45s of training; json logs
cat > job.sbatch <<'SB'
#!/bin/bash
#SBATCH -J sweep-lr3e-3
#SBATCH -n 4
#SBATCH --time=10
#SBATCH -o /work/blind/r29/gen/raw/029/sweep-%j.out
export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=35290 PYTHONUNBUFFERED=1
export LOGFMT=json EPOCHS=20 STEPS=400 LOG_EVERY=5 STEP_SLEEP=0.02 CKPT_EVERY=400 CKPT_DIR=/work/blind/r29/gen/raw/029/ckpt
srun --label -n 4 /work/blind/venv/bin/python /work/blind/r29/gen/train.py
SB
J=$(sbatch --parsable job.sbatch); echo $J > jobid
sleep 50; scancel $J
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
scontrol show job $J > job.txt; cp sweep-$J.out $RUNS/029/
