#!/bin/bash
# rank 1's shard (train-00001) came out of preprocessing with 0 samples (manifest says 0).
# sbatch + srun --label, 4 tasks; paste = the slurm-<jobid>.out file.
source /work/blind/r25/gen/common.sh
export SLURM_CONF=/work/blind/slurm25/slurm.conf
newrun 002_empty_shard
make_data --damage 1:empty
base_config config.toml
cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH --job-name=tinylm-pt
#SBATCH --ntasks=4
#SBATCH --overcommit
#SBATCH --time=00:10:00
#SBATCH --output=$W/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30020
echo "[\$(date -Is)] job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun --label $PY -m tinylm.train --config $W/config.toml
EOT
jid=$(sbatch --parsable job.sbatch); echo job $jid
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
cp $W/slurm-$jid.out $OUT/
sacct -j $jid -o JobID,State,ExitCode 2>/dev/null | head
