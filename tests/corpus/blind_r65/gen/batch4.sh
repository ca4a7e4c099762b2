G=/work/blind/r65/gen; S=/tmp/r65s; PY=/work/blind/torchenv/bin/python
export CKPT=/tmp/r65shards
cd /tmp
mkdir -p $S/036 $S/037 $S/038 $S/039 $S/040
( MODE=abort FRANK=1 WORLD=3 PORT=29692 $PY $G/spawn.py > $S/036/console.log 2>&1 ) &
( MODE=warmup_overflow WORLD=2 PORT=29693 $PY $G/spawn.py > $S/037/console.log 2>&1 ) &
wait
( MODE=scale_collapse FRANK=2 WORLD=3 PORT=29694 $PY $G/spawn.py > $S/038/console.log 2>&1 ) &
( cd $S/039 && MASTER_PORT=29695 FAULT=val_error FRANK=1 $PY $G/lit.py > $S/039/console.log 2>&1 ) &
wait
( /work/blind/torchenv/bin/accelerate launch --cpu --num_processes 2 --main_process_port 29696 $G/acc.py > $S/040/console.log 2>&1 ) &
( WORKERS=2 STEPS=150 STEP_SLEEP=0.05 bash $G/tr2.sh $S/041 29697 ) &
wait
( FAULT=abort FRANK=3 FSTEP=9 bash $G/tr2.sh $S/043 29698 ) &
( FAULT=inject FKIND=raise FMSG="Expected eval batch to contain 'attention_mask'" FRANK=0 FSTEP=10 LOGFMT=plain bash $G/tr2.sh $S/044 29699 ) &
wait
( FAULT=segv FRANK=1 FSTEP=4 bash $G/tr2.sh $S/045 29700 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29700 --rdzv-id job045 ) &
( source /work/blind/slurm65/env.sh; mkdir -p $S/042; cd $S/042; MPORT=29701 SRUN_ARGS="-o %x-%j-%t.out" STEPS=40 LOGFMT=logging_rank sbatch -W -J llama-ft -n 3 -o slurm-%j.out $G/job.sbatch ) &
wait
( mkdir -p $S/046; cd /tmp; FAULT=restart_once FRANK=1 STEPS=15 /work/blind/torchenv/bin/torchrun --nnodes 1 --nproc-per-node 2 --max-restarts 2 --master-addr 127.0.0.1 --master-port 29702 $G/train.py > $S/046/console.log 2>&1 ) &
( SCRIPT=/work/blind/r65/gen/train_b.py FAULT=ckpt_full CKPT=/dev/full FSTEP=3 bash $G/tr2.sh $S/047 29703 --log-dir $S/047/logs --redirects 3 ) &
wait
( FAULT=mismatch FRANK=2 FSTEP=3 GLOO_TMO=15 bash $G/tr2.sh $S/048 29704 ) &
( FAULT=mismatch_op FRANK=1 FSTEP=5 GLOO_TMO=15 bash $G/tr2.sh $S/049 29705 ) &
wait
