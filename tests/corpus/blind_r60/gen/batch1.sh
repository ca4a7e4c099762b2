#!/bin/bash
# single-host torchrun runs
source /work/blind/r60/gen/lib.sh
cd /tmp
t() { # t NNN nproc port extra-torchrun-args... ; env set by caller
  local n=$1 np=$2 port=$3; shift 3
  D=$(mk $n)
  $TR --nproc-per-node $np --master-port $port "$@" $G/train.py > $D/console.log 2>&1
  echo "$n rc=$?"
}
MODE=bad_sample FAIL_RANK=1 FMT=prefix t 001 3 29601
# 002: log-dir tree only, redirect+tee
D=$(mk 002); MODE=shape FAIL_RANK=2 FAIL_STEP=4 FMT=logA $TR --nproc-per-node 4 --master-port 29602 --log-dir $D/torchrun_logs --redirects 3 $G/train.py > /tmp/b60_002_console.txt 2>&1; echo "002 rc=$?"
MODE=nan FAIL_RANK=0 FAIL_STEP=3 FMT=json t 003 2 29603
MODE=sleep FAIL_RANK=2 FAIL_STEP=3 HANG=45 FMT=logB t 004 3 29604
MODE=signal SIG=11 FAIL_RANK=1 FAIL_STEP=4 FMT=norank t 005 4 29605
MODE=uneven FAIL_RANK=1 FAIL_STEP=3 FMT=prefix2 PGTO=20 t 006 2 29606
MODE=mismatch FAIL_RANK=1 FAIL_STEP=2 FMT=logA t 007 3 29607
MODE=collate_key FAIL_RANK=3 FAIL_STEP=5 FMT=logC t 008 4 29608
MODE=worker_kill WSIG=9 WORKERS=2 FAIL_RANK=1 FMT=prefix t 009 2 29609
MODE=worker_kill WSIG=7 WORKERS=2 FAIL_RANK=0 FMT=lognorank t 010 3 29610
MODE=emfile FAIL_RANK=1 FAIL_STEP=2 FMT=logB t 013 3 29613
MODE=prefetch_thread FAIL_RANK=2 FAIL_STEP=3 FMT=logA t 014 3 29614
MODE=eval_exc FAIL_RANK=1 STEPS=5 FMT=json t 015 2 29615
MODE=shutdown_exc FAIL_RANK=1 STEPS=5 FMT=prefix t 022 3 29622
MODE=hub FMT=logA HF_HUB_OFFLINE=0 t 023 2 29623
MODE=meta FAIL_RANK=1 FMT=logC t 024 2 29624
MODE=dtype FAIL_RANK=0 FAIL_STEP=5 FMT=prefix2 t 025 3 29625
MODE=assert FAIL_RANK=2 FAIL_STEP=1 FMT=norank t 026 4 29626
MODE=diverge LR=0.05 STEPS=40 FMT=logB t 027 2 29627
MODE=mismatch_op FAIL_RANK=1 FAIL_STEP=3 FMT=prefix t 028 2 29628
# healthy ones
MODE=warn FMT=logA STEPS=6 t 040 3 29640
MODE=none FMT=json STEPS=10 TORCH_CPP_LOG_LEVEL=INFO t 041 2 29641
MODE=none FMT=tqdm STEPS=12 t 042 2 29642
