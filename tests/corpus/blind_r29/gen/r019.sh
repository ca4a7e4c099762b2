source /work/blind/r29/gen/lib.sh; mk 019; cd $RAW/019
# sbatch + srun --kill-on-bad-exit=1 (no --label); rank 1 feeds float token ids to the embedding; epoch logs (r1 |)
cat > job.sbatch <<'SB'
#!/bin/bash
#SBATCH -J emb-ablate
#SBATCH -n 4
#SBATCH -o /work/blind/r29/gen/raw/019/slurm-%j.out
#SBATCH --time=5
export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=35190 PYTHONUNBUFFERED=1
export LOGFMT=epoch FAULT=dtype FAULT_RANK=1 FAULT_STEP=1005 EPOCHS=3 STEPS=400 LOG_EVERY=3 CKPT_DIR=/work/blind/r29/gen/raw/019/ckpt
srun --kill-on-bad-exit=1 -n 4 /work/blind/venv/bin/python /work/blind/r29/gen/train.py
SB
J=$(sbatch --parsable job.sbatch); echo $J > jobid
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
scontrol show job $J > job.txt; cp slurm-$J.out $RUNS/019/
