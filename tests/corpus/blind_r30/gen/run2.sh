#!/usr/bin/env bash
# usage: run.sh NNN   -> produces /work/blind/r30/runs/NNN
set -u
export OMP_NUM_THREADS=1 PATH=/work/blind/venv/bin:$PATH SLURM_CONF=/work/blind/r30/slurm/slurm.conf
G=/work/blind/r30/gen
T="$G/train.py"
ID=$1
R=/work/blind/r30/runs/$ID
W=/work/blind/r30/work/$ID   # scratch that is not handed over
rm -rf "$R" "$W"; mkdir -p "$R" "$W"
PORT=$((36100 + 10#$ID))
cd "$R"
TR="torchrun --nproc_per_node=4 --master_addr=127.0.0.1 --master_port=$PORT"
PY=/work/blind/venv/bin/python

sbatch_wait() {  # sbatch_wait SCRIPT -> waits for the job to end, prints job id
  local j; j=$(sbatch --parsable "$1"); echo "$j" > "$W/jobid"
  while squeue -h -j "$j" 2>/dev/null | grep -q .; do sleep 2; done
  echo "$j"
}

case $ID in
039) # mismatched collective on rank 1 (metrics all_reduce of a different size), no DEBUG wrapper
  $TR $T --steps 500 --log-every 5 --log-all --fault mismatch --fault-rank 1 --fault-step 77 --pg-timeout 30 > console.log 2>&1 ;;
040) # rank 2 builds a wider model (stale HIDDEN_OVERRIDE in its env): DDP's cross-rank shape check; srun --label
  cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH -J mlp-ddp -n 4 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1 HIDDEN_OVERRIDE=80
srun --label $PY $T --steps 500 --log-every 5 --fault model_mismatch --fault-rank 2
EOT
  sbatch_wait job.sbatch >/dev/null; mv job.sbatch "$W/" ;;
014) # NaN detected and raised on rank 3; per-rank log dir
  $TR --log-dir "$R/logs" $T --steps 500 --log-all --log-every 5 --fault nan_raise --fault-rank 3 --fault-step 181 > "$W/console.log" 2>&1 ;;
036) # divergence, then the user scancels the job
  cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH -J mlp-div -n 2 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun --label $PY $T --steps 100000 --opt adam --lr 0.003 --label-noise 0.05 --log-every 5 --fault diverge --fault-step 600 --step-sleep 0.005
EOT
  j=$(sbatch --parsable job.sbatch); sleep 50; scancel "$j"
  while squeue -h -j "$j" | grep -q .; do sleep 1; done; mv job.sbatch "$W/" ;;
041) # healthy overfitting run (eval loss rises), every rank logs; slurm output + job script in a tar.gz
  mkdir -p "$W/job"
  cat > "$W/job/job.sbatch" <<EOT
#!/bin/bash
#SBATCH -J mlp-overfit -n 2 -o $W/job/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun --label $PY $T --steps 1800 --n 256 --hidden 256 --opt adam --lr 0.003 --label-noise 0.3 --eval-every 100 --log-all --log-every 3 --print-config
EOT
  sbatch_wait "$W/job/job.sbatch" >/dev/null; tar -C "$W" -czf job_logs.tar.gz job ;;
042) # healthy amp run with periodic overflow skips, torchrun --log-dir per-rank files handed as a directory
  $TR --log-dir "$R/logs" --tee 3 $T --steps 1200 --amp --init-scale 3e38 --growth-interval 100 --log-all --log-every 4 > "$W/console.log" 2>&1 ;;
esac
echo "run $ID done rc=$?" >> /work/blind/r30/gen/run_log.txt
