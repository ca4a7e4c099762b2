#!/bin/bash
# Slurm runs (sbatch + srun), one after another
source /work/blind/r61/gen/lib.sh
source /work/blind/slurm61/env.sh
sb() {  # sb NNN "sbatch opts" "env" "srun opts"
  local n=$1; mkdir -p $R/$n
  cat > /tmp/b61_$n.sbatch <<EOS
#!/bin/bash
#SBATCH $2 -o $R/$n/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$((29700 + 10#$n)) $3
echo "[\$(date +%FT%T)] job \$SLURM_JOB_ID starting on \$SLURM_NODELIST with \$SLURM_NTASKS tasks"
srun $4 $PY $T; rc=\$?
echo "[\$(date +%FT%T)] srun exited with \$rc"
EOS
  local j=$(sbatch --parsable /tmp/b61_$n.sbatch)
  while squeue -h -j $j 2>/dev/null | grep -q .; do sleep 2; done
  echo "run $n job $j $(scontrol show job $j | grep -oE 'JobState=\S+|ExitCode=\S+' | tr '\n' ' ')"
}
# 014 srun -l --kill-on-bad-exit: rank 2 cannot find its resume checkpoint at startup
sb 014 "-J resume-7b -n 4" "FAULT=ckpt_missing FRANK=2 FPHASE=startup CKPT_DIR=/scratch/ckpt/run7" "-l --kill-on-bad-exit=1"
# 015 srun (no label), logging with rank: rank 1 hits RLIMIT_NOFILE=64 (EMFILE) at step 2
sb 015 "-J tok-pretrain -n 3" "LOGFMT=logging FAULT=emfile FRANK=1 FSTEP=2" "--kill-on-bad-exit=1"
# 019 per-rank output files (rank only in file name): rank 3 OOM-killed by memory cgroup at step 4
CG=/sys/fs/cgroup/memory/b61oom; mkdir -p $CG; echo 900M > $CG/memory.limit_in_bytes
sb 019 "-J mm-train -n 4" "LOGFMT=logging_norank FAULT=oom FRANK=3 FSTEP=4 OOM_CGROUP=$CG" "--kill-on-bad-exit=1 -o $R/019/rank-%t.log"
# 045 srun -l --kill-on-bad-exit: rank 1 blocks forever reading a pipe at step 3; others time out (gloo 12s)
sb 045 "-J eval-sweep -n 3" "FAULT=blocked_read FRANK=1 FSTEP=3 PG_TIMEOUT=12" "-l --kill-on-bad-exit=1"
# 040 healthy, json lines, scary text, srun -l
sb 040 "-J healthy-json -n 3" "LOGFMT=json SCARY=1" "-l"
# 027 healthy, no label, prefix logs with eval_error_rate metric
sb 027 "-J healthy-prefix -n 2" "LOGFMT=prefix SCARY=1 STEPS=12" ""
