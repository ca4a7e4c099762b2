#!/bin/bash
# srun --label -n 3 on a Slurm (SLURM_CONF from tests/slurm/env.sh); rank 1 deadlocks at step 20; scancel ~44 s later.
# Usage: scancel.sh OUTDIR PORT   (needs torch on PATH's python)
set -u
out=$1; port=$2; here=$(cd "$(dirname "$0")" && pwd); mkdir -p "$out"
py=$(command -v python)
jid=$(sbatch --parsable -n 3 -o "$out/slurm-%j.out" --wrap "srun --label bash -c 'RANK=\$SLURM_PROCID WORLD_SIZE=\$SLURM_NTASKS MASTER_ADDR=127.0.0.1 MASTER_PORT=$port HANG_RANK=1 $py $here/train_hang.py'")
sleep 50; scancel "$jid"; sleep 3; echo "job $jid cancelled"
