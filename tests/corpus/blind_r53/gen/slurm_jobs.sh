#!/bin/bash
# submits the Slurm-launched runs 031-034 to the private one-node Slurm
source /work/blind/slurm53/env.sh
SET=/work/blind/r53/set; G=$SET/gen; PY=/work/blind/torchenv/bin/python
mk() { rm -rf $SET/runs/$1; mkdir -p $SET/runs/$1; }
# 031 healthy, per-task files
mk 031; cat > $SET/runs/031/job.sbatch <<EOT
#!/bin/bash
#SBATCH -J r53-healthy -n 4 -t 5 -o $SET/runs/031/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29631 STYLE=log STEPS=30
srun -n 4 -o $SET/runs/031/task-%t.out $PY $G/train.py
EOT
sbatch $SET/runs/031/job.sbatch
# 032 rank 2 raises, others block (long gloo timeout), time limit tears it down
mk 032; cat > $SET/runs/032/job.sbatch <<EOT
#!/bin/bash
#SBATCH -J r53-exc -n 4 -t 1 -o $SET/runs/032/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29632 STYLE=print MODE=keyerror CULPRIT=2 FSTEP=6 GLOO_TIMEOUT=900 STEPS=40
srun -n 4 --kill-on-bad-exit=0 -o $SET/runs/032/task-%t.out $PY $G/train.py
EOT
sbatch $SET/runs/032/job.sbatch
# 033 healthy but slow, time limit is the cause
mk 033; cat > $SET/runs/033/job.sbatch <<EOT
#!/bin/bash
#SBATCH -J r53-slow -n 2 -t 1 -o $SET/runs/033/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29633 STYLE=log STEPS=100000 STEP_SLEEP=0.3
srun -n 2 $PY $G/train.py
EOT
sbatch $SET/runs/033/job.sbatch
# 034 healthy, cancelled by scancel after ~25 s
mk 034; cat > $SET/runs/034/job.sbatch <<EOT
#!/bin/bash
#SBATCH -J r53-cancel -n 2 -t 5 -o $SET/runs/034/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29634 STYLE=json STEPS=100000 STEP_SLEEP=0.3
srun -n 2 $PY $G/train.py
EOT
J=$(sbatch --parsable $SET/runs/034/job.sbatch); echo $J > $SET/runs/034/.jobid
( sleep 30; scancel $J ) &
# 035 (submitted separately, same pattern): rank 2 logs a KeyError then holds for debugger; others block in
# allreduce with GLOO_TIMEOUT=900; the 1-minute time limit tears the job down (see runs/035/job.sbatch)
# 049 (submitted separately, see runs/049/job.sbatch): srun per-task files, rank 1 moves itself into the
# /sys/fs/cgroup/memory/r53oom cgroup (400 MB limit) and is OOM-killed; kern.log = dmesg -T captured after the job
