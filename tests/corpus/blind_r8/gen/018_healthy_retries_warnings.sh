#!/bin/bash
R=/work/blind/r8/runs/018_healthy_retries_warnings; rm -rf $R; mkdir -p $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
cat > $R/job.sbatch <<'S'
#!/bin/bash
#SBATCH -J ae-web
#SBATCH -n 3
#SBATCH -t 00:05:00
#SBATCH -o /work/blind/r8/runs/018_healthy_retries_warnings/slurm-%j.out
export OMP_NUM_THREADS=1
srun --label /work/blind/venv/bin/python /work/blind/r8/gen/018_healthy_retries_warnings.py
S
JID=$(sbatch --parsable $R/job.sbatch)
for i in $(seq 1 90); do sleep 1; squeue -h -j $JID 2>/dev/null | grep -q . || break; done
scontrol show job $JID 2>/dev/null | grep -E "JobState|ExitCode" > /work/blind/r8/meta/018.rc
