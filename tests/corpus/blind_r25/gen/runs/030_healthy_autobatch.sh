#!/bin/bash
# HEALTHY. Tasks run under a 2.2 GB address-space limit (container-style). The trainer's batch-size probe tries
# 16384 and 2048 first: both fail in the CPU allocator (caught, logged with traceback, "halving"), 64 fits, the
# configured batch (8) is kept, and training completes. sbatch/srun --label; paste = slurm-<jobid>.out
source /work/blind/r25/gen/common.sh
export SLURM_CONF=/work/blind/slurm25/slurm.conf
newrun 030_healthy_autobatch
make_data
MAX_STEPS=80 EVAL_EVERY=40 CKPT_EVERY=40 LOG_EVERY=10 base_config config.toml
cat >> config.toml <<EOT

[autobatch]
probe = true
candidates = [16384, 2048, 64]
EOT
cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH --job-name=tinylm-pt
#SBATCH --ntasks=4
#SBATCH --overcommit
#SBATCH --time=00:10:00
#SBATCH --output=$W/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30300
ulimit -v 2200000
echo "[\$(date -Is)] job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun --label $PY -m tinylm.train --config $W/config.toml
echo "[\$(date -Is)] done"
EOT
jid=$(sbatch --parsable job.sbatch); echo job $jid
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
cp $W/slurm-$jid.out $OUT/
