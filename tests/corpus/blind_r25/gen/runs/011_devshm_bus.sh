#!/bin/bash
# sbatch/srun, 4 tasks standing for 4 single-task nodes; rank 2's node has a tiny /dev/shm (container
# default-style size; emulated with a private mount namespace and a small tmpfs on /dev/shm for that task).
# Its DataLoader workers pass batches through /dev/shm and die with SIGBUS.
# paste = slurm-<jobid>.out (srun --label)
source /work/blind/r25/gen/common.sh
export SLURM_CONF=/work/blind/slurm25/slurm.conf
newrun 011_devshm_bus
make_data
MAX_STEPS=80 EVAL_EVERY=20 CKPT_EVERY=40 base_config config.toml
sed -i 's/^batch_size = 8/batch_size = 16/; s/^eval_batches = 4/eval_batches = 2\neval_batch_size = 16/' config.toml
cat > task.sh <<EOT
#!/bin/bash
if [ "\$SLURM_PROCID" = 2 ]; then
  exec unshare -m sh -c 'mount -t tmpfs -o size=${SHM:-64k} shm /dev/shm && exec $PY -m tinylm.train --config $W/config.toml'
fi
exec $PY -m tinylm.train --config $W/config.toml
EOT
chmod +x task.sh
cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH --job-name=tinylm-pt
#SBATCH --ntasks=4
#SBATCH --overcommit
#SBATCH --time=00:05:00
#SBATCH --output=$W/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30110
echo "[\$(date -Is)] job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun --label $W/task.sh
EOT
jid=$(sbatch --parsable job.sbatch); echo job $jid
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
cp $W/slurm-$jid.out $OUT/
