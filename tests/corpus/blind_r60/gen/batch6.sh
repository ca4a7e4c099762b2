#!/bin/bash
# continuation of batch5: node failure injected only after the other jobs ended
source /work/blind/r60/gen/lib.sh
source /work/blind/slurm60/env.sh
waitj() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; }
waitj 9; waitj 10
scontrol update nodename=$(hostname -s) state=down reason="node unresponsive: kernel soft lockup"; echo "062 node set down"
sleep 8; scontrol update nodename=$(hostname -s) state=resume; echo resumed
waitj 11
for n in 046 061 062; do scontrol show job $(cat /tmp/b60_jid_$n) | grep -E "JobState|ExitCode" | tr -s ' ' > /tmp/b60_state_$n; done
sinfo
echo batch6 done
