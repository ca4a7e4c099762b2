#!/bin/bash
gcc -shared -fPIC -O2 -o /work/blind/r8/meta/008/libnfsfault.so /work/blind/r8/gen/008_estale_shim.c -ldl
R=/work/blind/r8/runs/008_estale_ckpt_save; rm -rf $R; mkdir -p $R
rm -rf /work/blind/r8/meta/008/nfs-ckpt; mkdir -p /work/blind/r8/meta/008/nfs-ckpt/run42
export SLURM_CONF=/work/blind/slurm/slurm.conf
cat > $R/job.sbatch <<'S'
#!/bin/bash
#SBATCH -J vit-pretrain
#SBATCH -N 1
#SBATCH -n 3
#SBATCH -t 00:05:00
#SBATCH -o /work/blind/r8/runs/008_estale_ckpt_save/slurm-%j.out
echo "job $SLURM_JOB_ID on $SLURM_JOB_NODELIST started $(date -Is)"
export OMP_NUM_THREADS=1 CKPT_DIR=/work/blind/r8/meta/008/nfs-ckpt/run42
export LD_PRELOAD=/work/blind/r8/meta/008/libnfsfault.so
srun /work/blind/venv/bin/python /work/blind/r8/gen/008_estale_ckpt_save.py
echo "srun exited $?"
S
JID=$(sbatch --parsable $R/job.sbatch)
for i in $(seq 1 90); do sleep 1; squeue -h -j $JID 2>/dev/null | grep -q . || break; done
scontrol show job $JID 2>/dev/null | grep -E "JobState|ExitCode" > /work/blind/r8/meta/008.rc
