#!/bin/bash
source /work/blind/r60/gen/lib.sh
source /work/blind/slurm60/env.sh
cd /tmp
sb() { local n=$1 nt=$2 tl=$3; shift 3; D=$(mk $n)
  jid=$(sbatch --parsable -J train$n -n $nt -c 1 --time=$tl -o $D/slurm-%j.out "$@" $G/sjob.sh)
  echo $jid > /tmp/b60_jid_$n; echo "$n submitted $jid"; }
waitj() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; }
MPORT=29746 MODE=none STEPS=100000 STEP_SLEEP=1.5 FMT=prefix PGTO=900 SRUN_ARGS="" sb 046 2 1
MPORT=29761 MODE=bad_sample_hang FAIL_RANK=1 FAIL_STEP=3 PGTO=900 FMT=logA SRUN_ARGS="-l" sb 061 3 1
MPORT=29762 MODE=none STEPS=100000 STEP_SLEEP=0.5 FMT=logB PGTO=900 SRUN_ARGS="-l" sb 062 2 10 --no-requeue
sleep 25
scontrol update nodename=$(hostname -s) state=down reason="node unresponsive: kernel soft lockup"; echo "062 node set down"
sleep 5; scontrol update nodename=$(hostname -s) state=resume; echo resumed
for n in 046 061 062; do waitj $(cat /tmp/b60_jid_$n); scontrol show job $(cat /tmp/b60_jid_$n) | grep -E "JobState|ExitCode" | tr -s ' ' > /tmp/b60_state_$n; done
sinfo
echo batch5 done
