#!/bin/bash
# Slurm runs (sbatch + srun)
source /work/blind/r60/gen/lib.sh
source /work/blind/slurm60/env.sh
cd /tmp
sb() { # sb NNN ntasks time extra-sbatch-args ; env for job passed via --export=ALL
  local n=$1 nt=$2 tl=$3; shift 3; D=$(mk $n)
  jid=$(sbatch --parsable -J train$n -n $nt -c 1 --time=$tl -o $D/slurm-%j.out "$@" $G/sjob.sh)
  echo $jid > /tmp/b60_jid_$n; echo "$n submitted $jid"; }
waitj() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; }
MPORT=29712 MODE=ulimit_oom FAIL_RANK=1 FAIL_STEP=3 ULIMIT_RANK=1 FMT=logA SRUN_ARGS="-l --kill-on-bad-exit=1" sb 012 3 5
MPORT=29745 MODE=spin FAIL_RANK=1 FAIL_STEP=4 PGTO=900 FMT=logB SRUN_ARGS="-l" sb 045 3 1
MPORT=29746 MODE=none STEPS=100000 STEP_SLEEP=0.5 FMT=prefix PGTO=900 SRUN_ARGS="" sb 046 2 1
MPORT=29748 MODE=bad_sample FAIL_RANK=2 PGTO=900 FMT=logC SRUN_ARGS="-l" sb 048 3 1
waitj $(cat /tmp/b60_jid_012)
MPORT=29747 MODE=none STEPS=100000 STEP_SLEEP=0.5 FMT=json SRUN_ARGS="--label" sb 047 2 30
sleep 20; scancel $(cat /tmp/b60_jid_047); echo "047 scancelled"
MPORT=29735 MODE=shape FAIL_RANK=3 FAIL_STEP=2 FMT=prefix2 SRUN_ARGS="-l --kill-on-bad-exit=1" sb 035 4 5
waitj $(cat /tmp/b60_jid_035)
MPORT=29736 MODE=nan FAIL_RANK=1 FAIL_STEP=4 FMT=norank SRUN_ARGS="" sb 036 3 5 -e $R/036/slurm-%j.err
waitj $(cat /tmp/b60_jid_036)
MPORT=29749 MODE=warn STEPS=6 FMT=logB TORCH_CPP_LOG_LEVEL=INFO SRUN_ARGS="-l" sb 049 2 5
for n in 045 046 048 049; do waitj $(cat /tmp/b60_jid_$n); done
for n in 012 045 046 047 048 035 036 049; do scontrol show job $(cat /tmp/b60_jid_$n) | grep -E "JobState|ExitCode" | tr -s ' ' > /tmp/b60_state_$n; done
echo batch3 done
