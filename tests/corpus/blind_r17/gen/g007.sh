#!/bin/bash
# 007: sbatch job, srun -l inside, 3 tasks. Line 53 of rank 1's shard contains latin-1 bytes -> UnicodeDecodeError
# in tokenize() on rank 1 at step 6; the others lose their peer / Slurm kills the step.
export SLURM_CONF=/work/blind/slurm/slurm.conf
R=/work/blind/r17/runs/007_text_shard_bad_bytes; rm -rf $R; mkdir -p $R; cd $R
D=/work/blind/r17/mnt/007data; rm -rf $D; mkdir -p $D
python3 - <<PY
import random
random.seed(7)
for r in range(3):
    with open("$D/part-%05d.txt" % r, "wb") as f:
        for i in range(120):
            s = " ".join(random.choice(["the","cat","sat","on","a","mat","dog","ran"]) for _ in range(8))
            b = s.encode()
            if r == 1 and i == 53:
                b = "caf\u00e9 na\u00efve r\u00e9sum\u00e9".encode("latin-1")
            f.write(b + b"\n")
PY
cat > $D/job.sbatch <<IN
#!/bin/bash
#SBATCH -J txtlm
#SBATCH -n 3
#SBATCH -t 5
export PYTHONPATH=/work/blind/r17/gen DATA_DIR=$D PG_TIMEOUT=15 LOGSTYLE=logging
export MASTER_ADDR=127.0.0.1 MASTER_PORT=22071
echo "job \$SLURM_JOB_ID on \$SLURM_NODELIST, \$SLURM_NTASKS tasks"
srun -l bash -c 'RANK=\$SLURM_PROCID WORLD_SIZE=\$SLURM_NTASKS LOCAL_RANK=\$SLURM_LOCALID exec /work/blind/venv/bin/python /work/blind/r17/gen/text_train.py'
IN
jid=$(sbatch --parsable -D $R $D/job.sbatch)
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
echo "job $jid done"
rm -rf $D
