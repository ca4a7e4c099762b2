#!/bin/bash
# node failure: the only job on the node when the node is set DOWN
source /work/blind/r60/gen/lib.sh
source /work/blind/slurm60/env.sh
waitj() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; }
D=$(mk 062)
jid=$(MPORT=29763 MODE=none STEPS=100000 STEP_SLEEP=1.5 FMT=logB PGTO=900 SRUN_ARGS="-l" sbatch --parsable -J train062 -n 2 -c 1 --time=10 --no-requeue -o $D/slurm-%j.out $G/sjob.sh)
echo $jid > /tmp/b60_jid_062
sleep 25
scontrol update nodename=$(hostname -s) state=down reason="node unresponsive: kernel soft lockup"; echo "062 node set down"
waitj $jid
scontrol show job $jid | grep -E "JobState|ExitCode" | tr -s ' ' > /tmp/b60_state_062
scontrol update nodename=$(hostname -s) state=resume; echo resumed; sinfo
echo batch7 done
