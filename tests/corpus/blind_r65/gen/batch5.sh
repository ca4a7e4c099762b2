G=/work/blind/r65/gen; S=/tmp/r65s
( WARNINGS=1 LOGFMT=logging STEPS=30 bash $G/tr2.sh $S/051 29707 --log-dir $S/051/tlogs --tee 3 ) &
( source /work/blind/slurm65/env.sh; mkdir -p $S/052; cd $S/052; MPORT=29708 SRUN_ARGS="-l" STEPS=60 STEP_SLEEP=0.1 LOGFMT=json WARNINGS=1 sbatch -W -J sft-run -n 4 -o slurm-%j.out $G/job.sbatch ) &
wait
