#!/bin/bash
# sbatch + srun --label, a long pre-training job (20000 steps, 1 h limit). About 20 s in, the user cancels it
# with a plain `scancel <jobid>` (someone needed the node). Slurm signals the step; the ranks log SIGTERM and
# stop; slurmstepd prints "*** JOB N ON vm CANCELLED AT ... ***". No rank started this.
source /work/blind/r18/gen/common.sh
newrun 025_user_scancel_midrun
export PY GEN
jid=$(sbatch --parsable $GEN/job025.sbatch); echo "job=$jid"
for i in $(seq 1 60); do sleep 1; grep -q "step 150/" slurm-$jid.out 2>/dev/null && break; done
scancel $jid; echo "scancel rc=$?"
for i in $(seq 1 60); do sleep 1; squeue -h -j $jid 2>/dev/null | grep -q . || break; done
echo "job gone"
