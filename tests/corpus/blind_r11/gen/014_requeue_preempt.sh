#!/bin/bash
# sbatch --requeue job; ~35 s in, the cluster preempts it for a reservation (simulated by the operator
# running `scontrol requeue`), which sends SIGTERM to the steps and puts the job back in the queue.
# The requeued job is held so that this record ends with the first attempt.
R=/work/blind/r11; RUN=$R/runs/014_requeue_preempt
rm -rf $RUN $R/scratch/014 && mkdir -p $RUN && cd $RUN
export SLURM_CONF=/work/blind/slurm/slurm.conf
JOB=$(sbatch --parsable --chdir=$RUN $R/gen/014_requeue_preempt.sbatch)
echo "submitted $JOB"
for i in $(seq 60); do sleep 1; [ "$(squeue -h -j $JOB -o %T)" = RUNNING ] && break; done
sleep 35
scontrol requeuehold $JOB
for i in $(seq 60); do sleep 1; st=$(squeue -h -j $JOB -o %T); [ "$st" = PENDING ] && break; done
sleep 2
scontrol show job $JOB | grep -E 'JobState|Reason|Restarts'
scancel $JOB
rm -rf $R/scratch/014
