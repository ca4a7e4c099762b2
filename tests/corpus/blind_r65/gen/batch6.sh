G=/work/blind/r65/gen; S=/tmp/r65s
( SCRIPT=$G/train_rec.py FAULT=nan FRANK=2 FSTEP=7 bash $G/tr2.sh $S/053 29709 --log-dir $S/053/elastic_logs --redirects 3 ) &
( source /work/blind/slurm65/env.sh; mkdir -p $S/054; cd $S/054; MPORT=29710 SRUN_ARGS="--kill-on-bad-exit=1" FAULT=sigkill FRANK=1 FSTEP=6 sbatch -W -J mlm -n 4 -o slurm-%j.out $G/job.sbatch ) &
wait
