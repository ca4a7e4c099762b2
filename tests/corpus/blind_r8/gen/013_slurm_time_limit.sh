#!/bin/bash
R=/work/blind/r8/runs/013_slurm_time_limit; rm -rf $R; mkdir -p $R /work/blind/r8/meta/013
export SLURM_CONF=/work/blind/slurm/slurm.conf
cat > $R/train.sbatch <<'S'
#!/bin/bash
#SBATCH -J cnn-sweep-7
#SBATCH -N 1
#SBATCH -n 1
#SBATCH -c 2
#SBATCH --time=00:01:00
#SBATCH -o /work/blind/r8/runs/013_slurm_time_limit/%x-%j.log
cd /work/blind/r8/meta/013
echo "[$(date -Is)] job $SLURM_JOB_ID starting on $(hostname)"
export OMP_NUM_THREADS=1
srun /work/blind/venv/bin/torchrun --standalone --nproc-per-node 2 --master-port 29913 /work/blind/r8/gen/013_slurm_time_limit.py
echo "[$(date -Is)] training exited with $?"
S
JID=$(sbatch --parsable $R/train.sbatch)
for i in $(seq 1 150); do sleep 1; squeue -h -j $JID 2>/dev/null | grep -q . || break; done
scontrol show job $JID 2>/dev/null | grep -E "JobState|ExitCode|RunTime" > /work/blind/r8/meta/013.rc
