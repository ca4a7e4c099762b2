#!/bin/bash
source /work/blind/r61/gen/lib.sh
P=${1:-all}
# 001 torchrun 4 ranks, data error (ValueError in Dataset.__getitem__) on rank 2 mid-training
start 001
FAULT=bad_sample FRANK=2 FSTEP=3 $TR --nproc-per-node 4 --master-port 29601 $T > $R/001/console.log 2>&1; done_ $?

# 002 torchrun --log-dir --redirects 3 (no tee): shape error on rank 1 at first step; logging w/ rank
start 002
rm -rf $R/002/torchrun_logs
LOGFMT=logging FAULT=shape FRANK=1 FSTEP=1 $TR --nproc-per-node 3 --master-port 29602 --log-dir $R/002/torchrun_logs --redirects 3 $T > $R/002/console.log 2>&1; done_ $?

# 003 torchrun 4 ranks: rank 3 silently sleeps at step 4; others hit the gloo timeout
start 003
FAULT=hang FRANK=3 FSTEP=4 PG_TIMEOUT=10 $TR --nproc-per-node 4 --master-port 29603 $T > $R/003/console.log 2>&1; done_ $?

# 004 torchrun 3 ranks, plain prints w/o rank: rank 1 in a 900M memory cgroup, OOM-killed at step 3
start 004
CG=/sys/fs/cgroup/memory/b61oom; mkdir -p $CG; echo 900M > $CG/memory.limit_in_bytes
LOGFMT=plain FAULT=oom FRANK=1 FSTEP=3 OOM_CGROUP=$CG $TR --nproc-per-node 3 --master-port 29604 $T > $R/004/console.log 2>&1; done_ $?
dmesg | grep -E "b61oom|Out of memory|oom-kill|Killed process" | grep -v b60 | tail -12 > $R/004/dmesg.txt

# 005 torchrun --max-restarts 2: KeyError in collate_fn on rank 1 at step 2, every attempt
start 005
LOGFMT=logging_norank FAULT=collate_keyerror FRANK=1 FSTEP=2 $TR --nproc-per-node 2 --max-restarts 2 --master-port 29605 $T > $R/005/console.log 2>&1; done_ $?

# 006 torchrun --max-restarts 1: rank 2 segfaults at step 3 on attempt 0 only; attempt 1 finishes (healthy)
start 006
PYTHONFAULTHANDLER=1 FAULT=sigsegv FRANK=2 FSTEP=3 FAULT_ATTEMPT=0 $TR --nproc-per-node 3 --max-restarts 1 --master-port 29606 $T > $R/006/console.log 2>&1; done_ $?
