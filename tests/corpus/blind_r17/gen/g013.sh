#!/bin/bash
# 013: sbatch + srun -l, 4 tasks. epoch1_rank0.npz was truncated by an interrupted rsync (first 60% of bytes)
# -> rank 0 fails in np.load with BadZipFile at the start of epoch 1; others lose their peer.
export SLURM_CONF=/work/blind/slurm/slurm.conf
R=/work/blind/r17/runs/013_npz_shard_truncated; rm -rf $R; mkdir -p $R; cd $R
D=/work/blind/r17/mnt/013data; rm -rf $D; mkdir -p $D
/work/blind/venv/bin/python - <<PY
import numpy as np
for e in range(3):
    for r in range(4):
        np.savez_compressed("$D/epoch%d_rank%d.npz" % (e, r), x=np.random.randn(256, 32).astype("float32"), y=np.random.randint(0, 4, 256))
p = "$D/epoch1_rank0.npz"; b = open(p, "rb").read(); open(p, "wb").write(b[: int(len(b) * 0.6)])
PY
cat > $D/job.sh <<IN
#!/bin/bash
#SBATCH --job-name=npz-train
#SBATCH --ntasks=4
#SBATCH --time=00:05:00
export PYTHONPATH=/work/blind/r17/gen DATA_DIR=$D PG_TIMEOUT=15
export MASTER_ADDR=\$(hostname -s) MASTER_PORT=22131
srun -l bash -c 'RANK=\$SLURM_PROCID WORLD_SIZE=\$SLURM_NTASKS LOCAL_RANK=\$SLURM_LOCALID MASTER_ADDR=127.0.0.1 exec /work/blind/venv/bin/python /work/blind/r17/gen/npz_train.py'
echo "srun exit code \$?"
IN
jid=$(sbatch --parsable -D $R $D/job.sh)
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
rm -rf $D
