#!/bin/bash
R=/work/blind/r58/gen/run.sh
S=/work/blind/r58/gen/sb.sh
source /work/blind/slurm58/env.sh
mkdir -p /tmp/b58_ck060
$R 060 'torchrun --nproc-per-node 3 --master-port 29560 $T --mode ckpt_hang --bad 0 --fmt logging --ckdir /tmp/b58_ck060'
rm -rf /tmp/b58_ck060
mkdir -p /work/blind/r58/runs/061; (cd /work/blind/r58/runs/061 && sbatch --parsable /work/blind/r58/gen/jobs/061.sbatch)
( $S 059 "--ntasks=3" "-l" "--mode sigterm_handler --fmt logging --steps 1000 --sleep 1 --timeout 60" ) &
sleep 30
jid=$(squeue -h -n train-059 -o %i); echo "scancel --signal=TERM $jid"; scancel --signal=TERM $jid
wait
