source /work/blind/r29/gen/lib.sh; mk 013; cd $RAW/013
# sbatch + srun -n4 --label; checkpoint dir is a read-only mount -> EROFS on rank 0 at step 400; iso logs
mkdir -p ckpt_src ckpt; mountpoint -q ckpt || mount -t tmpfs -o size=50M,ro tmpfs $RAW/013/ckpt
cat > job.sbatch <<'SB'
#!/bin/bash
#SBATCH -J lm-tiny-ro
#SBATCH -n 4
#SBATCH -o /work/blind/r29/gen/raw/013/slurm-%j.out
#SBATCH --time=5
export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=35130 PYTHONUNBUFFERED=1
export FAULT=none EPOCHS=3 STEPS=300 CKPT_EVERY=400 LOG_EVERY=3 CKPT_DIR=/work/blind/r29/gen/raw/013/ckpt/lm-tiny
echo "job $SLURM_JOB_ID on $SLURM_JOB_NODELIST, $SLURM_NTASKS tasks"
srun --label -n 4 /work/blind/venv/bin/python /work/blind/r29/gen/train.py
echo "srun exited $?"
SB
J=$(sbatch --parsable job.sbatch); echo $J > jobid
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
scontrol show job $J > job.txt; umount $RAW/013/ckpt
cp slurm-$J.out $RUNS/013/
