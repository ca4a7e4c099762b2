#!/bin/bash
# sbatch, srun 4 tasks; after ~25 s the job is asked to stop: scancel --signal=TERM (what a preempting
# scheduler sends first); every rank's handler logs and exits 143.
NAME=017_preempt_sigterm; source /work/blind/r16/gen/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ft-preemptible
#SBATCH -n 4
#SBATCH -o slurm-%j.out
export MASTER_PORT=21017 STEPS=100000 STEP_SLEEP=0.1 LOG_EVERY=20 LOGFMT=logging HANDLE_SIGTERM=1
srun $GEN/slurm_env.sh $PY $TRAIN
EOS
JID=$(sbatch --parsable job.sh); rm job.sh
sleep 25
scancel --signal=TERM $JID
while squeue -h -j $JID 2>/dev/null | grep -q .; do sleep 2; done
