source /work/blind/r29/gen/lib.sh; mk 035; cd $RAW/035
# HEALTHY: sbatch + srun --label, json logs, handled exceptions, completes
cat > job.sbatch <<'SB'
#!/bin/bash
#SBATCH -J tinylm-eval
#SBATCH -n 4
#SBATCH --time=5
#SBATCH -o /work/blind/r29/gen/raw/035/slurm-%j.out
export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=35350 PYTHONUNBUFFERED=1
export LOGFMT=json HEALTHY_NOISE=1 EPOCHS=3 STEPS=400 LOG_EVERY=3 CKPT_DIR=/work/blind/r29/gen/raw/035/ckpt
srun --label -n 4 /work/blind/venv/bin/python /work/blind/r29/gen/train.py
echo "done rc=$?"
SB
J=$(sbatch --parsable job.sbatch); echo $J > jobid
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
scontrol show job $J > job.txt; cp slurm-$J.out $RUNS/035/
