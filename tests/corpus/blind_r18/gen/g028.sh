#!/bin/bash
# sbatch + srun (no --label), 3 tasks, JSON-line logs (the p025 long-run script, LOGFMT=json).
# A sweep member asks for 20000 steps but was submitted with --time=1 min; it
# trains fine and is killed by Slurm at the limit ("CANCELLED ... DUE TO TIME LIMIT"); the ranks log SIGTERM.
source /work/blind/r18/gen/common.sh
newrun 028_sweep_member_time_limit
export PY GEN
jid=$(sbatch --parsable $GEN/job028.sbatch); echo "job=$jid"
for i in $(seq 1 150); do sleep 2; squeue -h -j $jid 2>/dev/null | grep -q . || break; done
echo "job gone after ~$((i*2)) s of polling"
