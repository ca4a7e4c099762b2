#!/bin/bash
# sbatch/srun, 4 tasks standing for 4 single-task nodes. The node of rank 2 reaches the metrics gateway
# through a wedged proxy (accepts, never answers); the uploader has no timeout, so rank 2's flush before
# eval (step 20) blocks forever. Ranks 0,1,3 time out in the eval all_reduce and exit; srun keeps waiting
# for task 2 until the job's 3-minute time limit. paste = slurm-<jobid>.out
source /work/blind/r25/gen/common.sh
export SLURM_CONF=/work/blind/slurm25/slurm.conf
newrun 007_metrics_flush_hang
make_data
MAX_STEPS=80 EVAL_EVERY=20 CKPT_EVERY=40 base_config config.toml
cat >> config.toml <<EOT

[metrics]
endpoint = "\$METRICS_ENDPOINT"
batch = 4
EOT
$PY $R25/gen/servers.py gateway 30071 & GW=$!
$PY $R25/gen/servers.py blackhole 30072 & BH=$!
cat > task.sh <<EOT
#!/bin/bash
# per-node environment (normally from the node image / profile)
if [ "\$SLURM_PROCID" = 2 ]; then export METRICS_ENDPOINT=http://127.0.0.1:30072/v1/ingest
else export METRICS_ENDPOINT=http://127.0.0.1:30071/v1/ingest; fi
exec $PY -m tinylm.train --config $W/config.toml
EOT
chmod +x task.sh
cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH --job-name=tinylm-pt
#SBATCH --ntasks=4
#SBATCH --overcommit
#SBATCH --time=00:03:00
#SBATCH --output=$W/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30070
echo "[\$(date -Is)] job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun --label $W/task.sh
EOT
jid=$(sbatch --parsable job.sbatch); echo job $jid
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
kill $GW $BH
cp $W/slurm-$jid.out $OUT/
