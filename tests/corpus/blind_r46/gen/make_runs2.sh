#!/usr/bin/env bash
# Extra runs added after the first pass (same helpers as make_runs.sh). Run 034 was the first attempt of
# r009 (see labels notes): it ran with an older train.py that installed the signal handler after init,
# so Slurm's SIGUSR1 killed both tasks during start-up.
set -u
G=$(cd "$(dirname "$0")" && pwd)
R=/work/blind/r46/set/runs
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
source /work/blind/slurm46/env.sh
export PATH=/work/blind/venv/bin:$PATH OMP_NUM_THREADS=1
TS="$G/train.py"
d() { rm -rf "$R/$1"; mkdir -p "$R/$1"; cd "$R/$1"; }
# collective mismatch with the debug wrapper enabled from the launcher's environment
r035() { d 035; TORCH_DISTRIBUTED_DEBUG=DETAIL $TR --nproc-per-node 3 --master-port 55135 --tee 3 --log-dir "$R/035/tlogs" $TS --scen mismatch --frank 2 --fstep 1300 --steps 2500 > console.log 2>&1; }
# elastic torchrun (c10d rendezvous) where rank 1 fails once in attempt 0 and the restarted group finishes
r036() { d 036; $TR --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:55136 --rdzv-id ft-job-88 --max-restarts 2 --log-dir "$R/036/tlogs" --tee 3 $TS --scen elastic --frank 1 --fstep 800 --steps 2000 > console.log 2>&1; }
# r030 of make_runs.sh passed --cpu with --multi_gpu (accelerate refused the flags), and accelerate's CPU\n# multi-process launch did not init the group for Trainer here; the kept run uses torchrun
r030() { d 030; rm -rf /tmp/r46_hf030; $TR --nproc-per-node 2 --master-port 55130 $G/hf.py --mode loadmismatch --steps 600 --out /tmp/r46_hf030 > console.log 2>&1; }
for n in "$@"; do echo "== $n $(date +%T)"; "r$n"; echo "== $n done rc=$? $(date +%T)"; done
