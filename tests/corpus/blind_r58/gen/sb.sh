#!/bin/bash
# usage: sb.sh NNN "<sbatch opts>" "<srun opts>" "<train args>" ["<extra env/prep lines>"]
# writes runs/NNN/job.sbatch (kept in gen/jobs/NNN.sbatch), submits it, waits for it to finish
id=$1; SBO=$2; SRO=$3; TA=$4; PREP=${5:-}
D=/work/blind/r58/runs/$id; mkdir -p $D /work/blind/r58/gen/jobs
J=/work/blind/r58/gen/jobs/$id.sbatch
cat > $J <<EOS
#!/bin/bash
#SBATCH --job-name=train-$id
#SBATCH --output=$D/slurm-%j.out
$(for o in $SBO; do echo "#SBATCH $o"; done)
export MASTER_ADDR=127.0.0.1
export MASTER_PORT=$((29600 + 10#$id))
$PREP
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, ntasks=\$SLURM_NTASKS"
srun $SRO /work/blind/torchenv/bin/python /work/blind/r58/gen/train.py $TA
echo "srun exited with \$?"
EOS
source /work/blind/slurm58/env.sh
cd $D
jid=$(sbatch --parsable $J)
echo "run $id job $jid"
for i in $(seq 1 240); do
  st=$(scontrol show job $jid 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
  case $st in PENDING|RUNNING|CONFIGURING|COMPLETING|"") sleep 2;; *) break;; esac
done
echo "run $id job $jid state=$st"
