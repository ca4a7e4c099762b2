#!/bin/bash
# sbatch -> srun -> torchrun (4 workers). After ~25 s of training, the job is asked to stop the
# way a preempting scheduler does: scancel --signal=TERM (sent to the job's steps). torchrun
# receives SIGTERM and tears the workers down.
. /work/blind/r15/gen/env.sh
R=019_sbatch_srun_torchrun_sigterm; D=$DATA/ds_019; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3
cd $RUNS/$R
JID=$(sbatch --parsable $GEN/019_job.sbatch); echo "job $JID"
for i in $(seq 60); do sleep 1; grep -q "step 40 " slurm-$JID.out 2>/dev/null && break; done
scancel --signal=TERM $JID
for i in $(seq 60); do sleep 1; squeue -h -j $JID 2>/dev/null | grep -q . || break; done
sacct -j $JID 2>/dev/null | head -3; scontrol show job $JID | grep -E "JobState|ExitCode"
