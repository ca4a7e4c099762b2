#!/bin/bash
# sbatch/srun, 4 tasks standing for 4 single-task nodes; rank 3's node applies a 1.45 GB address-space
# limit (ulimit -v, e.g. a stricter limits.conf). Eval keeps all softmax outputs (keep_predictions) and
# rank 3's allocator fails during the first eval. Per-task output files (srun --output=...%t.log).
# paste = logs/ (one file per rank) + the batch script's slurm-<jobid>.out
source /work/blind/r25/gen/common.sh
export SLURM_CONF=/work/blind/slurm25/slurm.conf
newrun 009_ulimit_v_alloc
$PY $R25/gen/make_data.py $W/data/train --shards 4 --samples 128 >/dev/null
$PY $R25/gen/make_data.py $W/data/val --shards 4 --samples 1024 --seed 99 >/dev/null
MAX_STEPS=60 EVAL_EVERY=20 CKPT_EVERY=30 base_config config.toml
sed -i 's/^eval_batches = 4/eval_batches = 16\neval_batch_size = 64/' config.toml
cat >> config.toml <<EOT

[eval]
keep_predictions = true

[log]
style = "bracket"
EOT
cat > task.sh <<EOT
#!/bin/bash
if [ "\$SLURM_PROCID" = 3 ]; then ulimit -v ${VLIM:-1450000}; fi
exec $PY -m tinylm.train --config $W/config.toml
EOT
chmod +x task.sh
mkdir -p $OUT/logs
cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH --job-name=tinylm-pt
#SBATCH --ntasks=4
#SBATCH --overcommit
#SBATCH --time=00:10:00
#SBATCH --output=$OUT/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30090
echo "[\$(date -Is)] job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun --output=$OUT/logs/%x-%j-rank%t.log $W/task.sh
echo "[\$(date -Is)] srun exited with \$?"
EOT
jid=$(sbatch --parsable job.sbatch); echo job $jid
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
