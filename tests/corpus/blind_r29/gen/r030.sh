source /work/blind/r29/gen/lib.sh; mk 030; cd $RAW/030
# sbatch --time=1, srun --label; rank 2 deadlocks at step 700 (pg timeout 15 min so nothing times out); Slurm kills the hung job at its limit
cat > job.sbatch <<'SB'
#!/bin/bash
#SBATCH -J pretrain-hang
#SBATCH -n 4
#SBATCH --time=1
#SBATCH -o /work/blind/r29/gen/raw/030/slurm-%j.out
export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=35300 PYTHONUNBUFFERED=1 LOGLEVEL=DEBUG
export LOGFMT=bracket FAULT=hang FAULT_RANK=2 FAULT_STEP=700 PG_TIMEOUT=900 EPOCHS=10 STEPS=400 LOG_EVERY=5 CKPT_EVERY=400 CKPT_DIR=/work/blind/r29/gen/raw/030/ckpt
srun --label -n 4 /work/blind/venv/bin/python /work/blind/r29/gen/train.py
SB
J=$(sbatch --parsable job.sbatch); echo $J > jobid
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
scontrol show job $J > job.txt; cp slurm-$J.out $RUNS/030/
