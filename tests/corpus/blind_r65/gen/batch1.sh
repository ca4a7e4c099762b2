set -x
G=/work/blind/r65/gen; R=/work/blind/r65/runs; S=/tmp/r65s; mkdir -p $S
export CKPT=/tmp/r65shards
( FAULT=segv FRANK=2 FSTEP=6 bash $G/tr2.sh $R/002 29652 ) &
( FAULT=rlimit_oom FRANK=1 FSTEP=5 LOGFMT=logging_rank bash $G/tr2.sh $R/003 29653 ) &
wait
( TORCH_DISTRIBUTED_DEBUG=DETAIL FAULT=mismatch FRANK=2 FSTEP=3 bash $G/tr2.sh $S/004 29654 --log-dir $S/004/logs ) &
( FAULT=inject FKIND=keyerror FRANK=3 FSTEP=7 LOGFMT=plain bash $G/tr2.sh $S/005 29655 --log-dir $S/005/torchrun_logs --tee 3 ) &
wait
( FAULT=sigkill FRANK=3 FSTEP=8 LOGFMT=json bash $G/tr2.sh $R/006 29656 ) &
( FAULT=thread FRANK=2 FSTEP=6 GLOO_TMO=15 bash $G/tr2.sh $R/007 29657 ) &
wait
