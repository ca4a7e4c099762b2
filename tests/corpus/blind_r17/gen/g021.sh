#!/bin/bash
# 021: sbatch, srun --label, 4 tasks. shard3.csv was exported with an extra column (33 features instead of 32),
# so rank 3's first forward fails with a matmul shape error; others lose rank 3.
export SLURM_CONF=/work/blind/slurm/slurm.conf
R=/work/blind/r17/runs/021_csv_shard_extra_column; rm -rf $R; mkdir -p $R; cd $R
D=/work/blind/r17/mnt/021d; rm -rf $D; mkdir -p $D
python3 - <<PY
import random
for r in range(4):
    nf = 33 if r == 3 else 32
    with open("$D/shard%d.csv" % r, "w") as f:
        for i in range(160):
            f.write(",".join("%.4f" % random.gauss(0, 1) for _ in range(nf)) + ",%d\n" % random.randint(0, 3))
PY
cat > $D/job.sh <<IN
#!/bin/bash
#SBATCH -J tab
#SBATCH --ntasks=4
#SBATCH --time=4
export PYTHONPATH=/work/blind/r17/gen DATA_DIR=$D PG_TIMEOUT=15 LOGSTYLE=json
export MASTER_ADDR=127.0.0.1 MASTER_PORT=22211
srun --label --kill-on-bad-exit=1 bash -c 'RANK=\$SLURM_PROCID WORLD_SIZE=\$SLURM_NTASKS LOCAL_RANK=\$SLURM_LOCALID exec /work/blind/venv/bin/python /work/blind/r17/gen/feat_train.py'
IN
jid=$(sbatch --parsable -D $R $D/job.sh)
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
rm -rf $D
