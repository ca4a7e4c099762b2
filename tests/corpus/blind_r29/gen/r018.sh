source /work/blind/r29/gen/lib.sh; mk 018; cd $RAW/018
# sbatch + srun -n 4 --label; rank 3's collate drops labels -> cross_entropy batch size mismatch; plain logs (rank only from --label)
cat > job.sbatch <<'SB'
#!/bin/bash
#SBATCH -J tinylm-sft
#SBATCH -n 4
#SBATCH -o /work/blind/r29/gen/raw/018/tinylm-sft.%j.log
#SBATCH --time=5
export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=35180 PYTHONUNBUFFERED=1
export LOGFMT=plain FAULT=shape FAULT_RANK=3 FAULT_STEP=1150 EPOCHS=3 STEPS=400 LOG_EVERY=2 CKPT_DIR=/work/blind/r29/gen/raw/018/ckpt
echo "[$(date -Is)] starting $SLURM_JOB_NAME ($SLURM_JOB_ID) ntasks=$SLURM_NTASKS"
srun --label -n 4 /work/blind/venv/bin/python /work/blind/r29/gen/train.py
echo "[$(date -Is)] srun exited with $?"
SB
J=$(sbatch --parsable job.sbatch); echo $J > jobid
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
scontrol show job $J > job.txt; cp tinylm-sft.$J.log $RUNS/018/
