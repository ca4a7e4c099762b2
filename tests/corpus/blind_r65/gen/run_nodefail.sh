# node failure: a running job's node is set DOWN by the admin (scontrol), then resumed
source /work/blind/slurm65/env.sh
S=/tmp/r65s; mkdir -p $S/050; cd $S/050
j=$(MPORT=29706 SRUN_ARGS="-l" STEPS=1000 STEP_SLEEP=0.3 sbatch --parsable -J pretrain-7b -n 2 -o slurm-%j.out /work/blind/r65/gen/job.sbatch)
sleep 20
scontrol update nodename=$(hostname -s) state=down reason="node unresponsive (test)"
sleep 15
scontrol show job $j | grep -E "JobState|Reason" > /tmp/r65s/050_state.txt
scontrol update nodename=$(hostname -s) state=resume
sinfo
