source /work/blind/r29/gen/lib.sh; mk 027; cd $RAW/027
# sbatch --time=1 with a single-node torchrun that needs ~3 minutes -> Slurm kills it at the time limit; asctime
cat > job.sbatch <<'SB'
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 1
#SBATCH -c 4
#SBATCH --time=1
#SBATCH -o /work/blind/r29/gen/raw/027/pretrain-small-%j.out
export PYTHONUNBUFFERED=1 LOGFMT=asctime EPOCHS=10 STEPS=400 LOG_EVERY=5 STEP_SLEEP=0.03 CKPT_EVERY=500 CKPT_DIR=/work/blind/r29/gen/raw/027/ckpt
echo "node=$(hostname) job=$SLURM_JOB_ID start=$(date -Is)"
/work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 35270 /work/blind/r29/gen/train.py
echo "torchrun exited $?"
SB
J=$(sbatch --parsable job.sbatch); echo $J > jobid
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
scontrol show job $J > job.txt; cp pretrain-small-$J.out $RUNS/027/
