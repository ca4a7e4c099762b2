#!/bin/bash
# torchrun single-agent failure/healthy runs 002-018
source /work/blind/r53/set/gen/lib.sh
export GLOO_TIMEOUT=15 STEPS=20
# 002 RuntimeError on rank 2, logging with rank prefix, --log-dir with per-rank redirects
STYLE=log MODE=exc CULPRIT=2 FSTEP=7 tr_run 002 4 29602 --log-dir logs --redirects 3
# 003 shape error on rank 1, JSON lines, 3 ranks
STYLE=json MODE=shape CULPRIT=1 FSTEP=4 tr_run 003 3 29603
# 004 inf input on rank 3 -> NaN loss raised there, --tee 3 (prefixed console)
STYLE=print MODE=nan CULPRIT=3 FSTEP=9 tr_run 004 4 29604 --tee 3
# 005 memory watcher SIGKILLs rank 1 (console has only the launcher record)
( timeout 60 $PY $G/memwatch.py 1200 > /tmp/r53_memwatch005.log 2>&1 & )
STYLE=print MODE=grow CULPRIT=1 FSTEP=3 STEP_SLEEP=0.3 tr_run 005 4 29605
cp /tmp/r53_memwatch005.log $SET/runs/005/memwatch.log
# 007 real cgroup (memory.limit 400M) OOM kill of rank 3
dmesg -c > /dev/null
STYLE=log MODE=oom CULPRIT=3 FSTEP=6 tr_run 007 4 29607
dmesg -T > $SET/runs/007/kern.log
# 008 rank 1 blocked reading a FIFO; others time out in allreduce
STYLE=log MODE=hang_fifo FIFO=/tmp/r53fx/ctl.fifo CULPRIT=1 FSTEP=5 tr_run 008 4 29608
# 009 rank 0 self-deadlock on a python lock; others time out
STYLE=print MODE=deadlock CULPRIT=0 FSTEP=8 tr_run 009 3 29609
# 010 rank 2 issues broadcast while others allreduce (DETAIL debug)
TORCH_DISTRIBUTED_DEBUG=DETAIL STYLE=print MODE=mismatch CULPRIT=2 FSTEP=5 tr_run 010 4 29610
# 011 rank 3 exits 0 early
STYLE=log MODE=exit0 CULPRIT=3 FSTEP=6 tr_run 011 4 29611
# 012 torn checkpoint read by rank 1
STYLE=print MODE=ckpt_corrupt CKPT=/tmp/r53fx/good.pt BADCKPT=/tmp/r53fx/torn.pt CULPRIT=1 tr_run 012 4 29612 --log-dir logs --redirects 3 --tee 3
# 013 wrong-architecture checkpoint on rank 2
STYLE=json MODE=ckpt_mismatch CKPT=/tmp/r53fx/good.pt BADCKPT=/tmp/r53fx/other.pt CULPRIT=2 tr_run 013 3 29613
# 014 final save on a 1 MB tmpfs
STYLE=log MODE=save_full SAVE_DIR=/tmp/r53full tr_run 014 2 29614
# 015 final save on a read-only mount
STYLE=print MODE=save_ro SAVE_DIR=/tmp/r53ro tr_run 015 3 29615
# 016 rank 1 leaks file handles under ulimit -n 512
( ulimit -n 512; STYLE=log MODE=emfile CULPRIT=1 FSTEP=4 tr_run 016 4 29616 )
# 017 shard for rank 2 missing
STYLE=print MODE=data DATA=/tmp/r53data FSTEP=0 CULPRIT=-1 tr_run 017 4 29617
# 018 rank 1 imports a missing compiled extension before init
STYLE=log MODE=init_exc CULPRIT=1 tr_run 018 4 29618 --log-dir logs --redirects 3
