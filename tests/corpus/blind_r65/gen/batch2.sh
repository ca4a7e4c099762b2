source /work/blind/slurm65/env.sh
G=/work/blind/r65/gen; S=/tmp/r65s
sb() { d=$1; shift; mkdir -p $S/$d; cd $S/$d; sbatch --parsable "$@" $G/job.sbatch; }
export CKPT=/tmp/r65shards
# pairs: at most 2 jobs at a time
( MPORT=29662 SRUN_ARGS="-l --kill-on-bad-exit=1" FAULT=abort FRANK=2 FSTEP=6 sb 012 -W -J train12 -n 4 -o slurm-%j.out ) &
( MPORT=29663 SRUN_ARGS="-o %x-%j-%t.out" FAULT=hang FRANK=1 FSTEP=5 GLOO_TMO=15 sb 013 -W -J gpt-pretrain -n 4 -o slurm-%j.out ) &
wait
( MPORT=29664 SRUN_ARGS="--kill-on-bad-exit=1 -o %x-%j-%t.out" FAULT=inject FKIND=dtype FRANK=3 FSTEP=0 sb 014 -W -J bertft -n 4 -o slurm-%j.out ) &
( MPORT=29665 SRUN_ARGS="-l" STEPS=1000 STEP_SLEEP=0.5 LOGFMT=logging sb 015 -W -J longrun -n 2 -t 1 -o slurm-%j.out ) &
wait
( MPORT=29666 SRUN_ARGS="-l" FAULT=thread FRANK=1 FSTEP=4 GLOO_TMO=900 STEPS=1000 sb 016 -W -J tok-train -n 3 -t 1 -o slurm-%j.out ) &
( j=$(MPORT=29667 SRUN_ARGS="-l" HANDLE_TERM=1 STEPS=1000 STEP_SLEEP=0.3 sb 017 -J spot-train -n 2 -o slurm-%j.out); sleep 25; scancel $j; echo $j ) &
wait
( MPORT=29668 SRUN_ARGS="-l" WARNINGS=1 STEPS=30 sb 018 -W -J healthy -n 4 -o slurm-%j.out ) &
( j=$(MPORT=29669 SRUN_ARGS="-o %x-%j-%t.out" FAULT=hang FRANK=2 FSTEP=6 GLOO_TMO=1800 STEPS=1000 LOGFMT=json sb 019 -J hangjob -n 4 -o slurm-%j.out); sleep 45; scancel $j; echo $j ) &
wait
