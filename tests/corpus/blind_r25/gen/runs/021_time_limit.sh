#!/bin/bash
# sbatch with --time=00:01:00 for a 5000-step run: Slurm cancels the job at its time limit (SIGTERM to every
# task, SIGKILL after KillWait=5s). srun --label; paste = slurm-<jobid>.out
source /work/blind/r25/gen/common.sh
export SLURM_CONF=/work/blind/slurm25/slurm.conf
newrun 021_time_limit
make_data
LOG_EVERY=20 MAX_STEPS=5000 EVAL_EVERY=200 CKPT_EVERY=250 base_config config.toml
cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH --job-name=tinylm-pt
#SBATCH --ntasks=4
#SBATCH --overcommit
#SBATCH --time=00:01:00
#SBATCH --output=$W/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30210
echo "[\$(date -Is)] job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun --label $PY -m tinylm.train --config $W/config.toml
EOT
jid=$(sbatch --parsable job.sbatch); echo job $jid
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
cp $W/slurm-$jid.out $OUT/
sacct -j $jid -o JobID,State,ExitCode,Elapsed 2>&1 | head -5
