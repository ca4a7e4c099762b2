G=/work/blind/r65/gen; R=/work/blind/r65/runs; S=/tmp/r65s; mkdir -p $S
export CKPT=/tmp/r65shards
TR=/work/blind/torchenv/bin/torchrun
( LOGFMT=json STEPS=25 bash $G/tr2.sh $S/008 29671 --log-dir $S/008/logs --redirects 3 ) &
( FAULT=restart_once FRANK=2 STEPS=15 bash $G/tr2.sh $S/009 29672 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29672 --rdzv-id job009 ) &
wait
( FAULT=inject FKIND=raise FMSG="expected input batch_size (8) to match target batch_size (6)" FRANK=2 FSTEP=3 bash $G/tr2.sh $S/010 29673 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29673 --rdzv-id job010 ) &
( cd /tmp; mkdir -p $S/011; $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29674 --rdzv-id job011 --rdzv-conf join_timeout=25 $G/train.py > $S/011/node0.log 2>&1 ) &
wait
( cd /tmp; mkdir -p $S/020; /work/blind/torchenv/bin/python -c "
import socket,time; s=socket.socket(); s.bind(('0.0.0.0',29675)); s.listen(); time.sleep(40)" & sleep 2; $TR --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29675 $G/train.py > $S/020/console.log 2>&1; wait ) &
( TORCH_DISTRIBUTED_DEBUG=DETAIL FAULT=mismatch_op FRANK=1 FSTEP=4 bash $G/tr2.sh $S/021 29676 ) &
wait
( FAULT=nan FRANK=1 FSTEP=9 bash $G/tr2.sh $S/022 29677 ) &
( FAULT=ckpt_full CKPT=/dev/full FSTEP=6 LOGFMT=logging bash $G/tr2.sh $S/023 29678 ) &
wait
( FAULT=ckpt_fifo CKPT_PATH=/tmp/r65fifo FSTEP=5 GLOO_TMO=15 bash $G/tr2.sh $S/024 29679 ) &
( FAULT=resume_corrupt CKPT=/tmp/r65ck_bad bash $G/tr2.sh $S/025 29680 ) &
wait
( FAULT=resume_mismatch CKPT=/tmp/r65ck_mm LOGFMT=logging_rank bash $G/tr2.sh $S/026 29681 ) &
( FAULT=hub GLOO_TMO=30 bash $G/tr2.sh $S/027 29682 ) &
wait
( FAULT=emfile FRANK=3 bash $G/tr2.sh $S/028 29683 ) &
( FAULT=inject FKIND=cuda FRANK=2 FSTEP=0 bash $G/tr2.sh $S/029 29684 ) &
wait
( FAULT=startup FKIND=import FRANK=2 GLOO_TMO=20 bash $G/tr2.sh $S/030 29685 ) &
( FAULT=inject FKIND=shape FRANK=0 FSTEP=12 LOGFMT=plain bash $G/tr2.sh $S/031 29686 ) &
wait
( FAULT=diverge FSTEP=6 STEPS=40 bash $G/tr2.sh $S/032 29687 ) &
( FAULT=workerbus FRANK=1 FSTEP=5 bash $G/tr2.sh $S/033 29688 ) &
wait
( FAULT=uneven FRANK=2 FSTEP=6 GLOO_TMO=15 bash $G/tr2.sh $S/034 29689 ) &
( FAULT=spin FRANK=0 FSTEP=7 GLOO_TMO=15 LOGFMT=json bash $G/tr2.sh $S/035 29690 ) &
wait
