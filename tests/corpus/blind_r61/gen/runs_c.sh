#!/bin/bash
source /work/blind/r61/gen/lib.sh
# 020 torchrun: rank 1's resume shard is truncated (torn write) -> load fails at startup
start 020; $PY /work/blind/r61/gen/mkckpt.py /tmp/b61resume020 corrupt
RESUME_DIR=/tmp/b61resume020 LOGFMT=logging $TR --nproc-per-node 3 --master-port 29620 $T > $R/020/console.log 2>&1; done_ $?
# 021 torchrun: rank 2's resume shard was written by a wider model -> load_state_dict size mismatch
start 021; $PY /work/blind/r61/gen/mkckpt.py /tmp/b61resume021 mismatch
RESUME_DIR=/tmp/b61resume021 $TR --nproc-per-node 3 --master-port 29621 $T > $R/021/console.log 2>&1; done_ $?
# 022 checkpoint dir on a 64k tmpfs: rank 0 save at step 6 hits ENOSPC
start 022; mkdir -p /tmp/b61full; mountpoint -q /tmp/b61full || mount -t tmpfs -o size=64k tmpfs /tmp/b61full
SAVE_DIR=/tmp/b61full/ckpt CKPT_PAD=100000 LOGFMT=logging $TR --nproc-per-node 3 --master-port 29622 $T > $R/022/console.log 2>&1; done_ $?
umount /tmp/b61full
# 023 per-rank checkpoint dirs; rank 2's is a read-only mount -> EROFS at save
start 023; for r in 0 1 2; do mkdir -p /tmp/b61ro/r$r; done; mountpoint -q /tmp/b61ro/r2 || mount -t tmpfs -o ro,size=1m tmpfs /tmp/b61ro/r2
SAVE_DIR=/tmp/b61ro/r{rank} SAVE_PER_RANK=1 LOGFMT=json $TR --nproc-per-node 3 --master-port 29623 $T > $R/023/console.log 2>&1; done_ $?
umount /tmp/b61ro/r2
# 024 rank 1's async checkpoint writer wedges; the others time out in the post-save barrier
start 024
FAULT=ckpt_hang FRANK=1 FPHASE=save PG_TIMEOUT=12 SAVE_PER_RANK=1 $TR --nproc-per-node 3 --master-port 29624 $T > $R/024/console.log 2>&1; done_ $?
# 025 rank 0's async save misses its 5 s deadline (TimeoutError)
start 025
FAULT=ckpt_timeout FRANK=0 FPHASE=save LOGFMT=logging $TR --nproc-per-node 2 --master-port 29625 $T > $R/025/console.log 2>&1; done_ $?
# 028 accelerate launch (cpu, 2 procs): dtype mismatch on rank 1 at the first step
start 028
FAULT=dtype FRANK=1 FSTEP=1 $ACC launch --cpu --num_processes 2 --num_machines 1 --main_process_port 29628 $T > $R/028/console.log 2>&1; done_ $?
# 029 json logs: rank 0 raises KeyError while writing final metrics at shutdown
start 029
FAULT=keyerr FRANK=0 FPHASE=shutdown LOGFMT=json $TR --nproc-per-node 3 --master-port 29629 $T > $R/029/console.log 2>&1; done_ $?
# 030 plain prints without rank: rank 1 spins in an infinite loop during evaluation; others time out
start 030
FAULT=spin FRANK=1 FPHASE=eval LOGFMT=plain PG_TIMEOUT=10 $TR --nproc-per-node 4 --master-port 29630 $T > $R/030/console.log 2>&1; done_ $?
# 031 rank 0 self-deadlocks at start-up before joining the process group
start 031
FAULT=deadlock FRANK=0 FPHASE=startup PG_TIMEOUT=12 LOGFMT=logging $TR --nproc-per-node 3 --master-port 29631 $T > $R/031/console.log 2>&1; done_ $?
# 032 rank 0 downloads the tokenizer from an unreachable hub at start-up
start 032
HF_ENDPOINT=http://127.0.0.1:9 HF_HUB_ETAG_TIMEOUT=3 HF_HUB_DOWNLOAD_TIMEOUT=3 FAULT=hub FRANK=0 FPHASE=startup LOGFMT=logging PG_TIMEOUT=20 $TR --nproc-per-node 2 --master-port 29632 $T > $R/032/console.log 2>&1; done_ $?
# 033 --log-dir --tee 3: rank 1 imports a broken compiled extension (invalid ELF) at start-up
start 033; mkdir -p /tmp/b61ext; head -c 4096 /dev/urandom > /tmp/b61ext/fused_adam_cuda.cpython-311-x86_64-linux-gnu.so; rm -rf $R/033/logs
EXT_DIR=/tmp/b61ext FAULT=import_ext FRANK=1 FPHASE=startup $TR --nproc-per-node 2 --master-port 29633 --log-dir $R/033/logs --tee 3 $T > $R/033/console.log 2>&1; done_ $?
# 034 rank 2 loss scale keeps overflowing until minimum
start 034
FAULT=fp16 FRANK=2 FSTEP=2 STEPS=10 EVAL_EVERY=0 $TR --nproc-per-node 3 --master-port 29634 $T > $R/034/console.log 2>&1; done_ $?
# 035 loss diverges on all ranks (weights blow up from step 3); rank 0's guard raises
start 035
FAULT=diverge FSTEP=3 FRANK=-1 LOGFMT=logging STEPS=12 EVAL_EVERY=0 $TR --nproc-per-node 2 --master-port 29635 $T > $R/035/console.log 2>&1; done_ $?
# 036 --log-dir only: rank 1 SIGSEGV at step 5 (no faulthandler)
start 036; rm -rf $R/036/logs
FAULT=sigsegv FRANK=1 FSTEP=5 $TR --nproc-per-node 3 --master-port 29636 --log-dir $R/036/logs --redirects 3 $T > $R/036/console.log 2>&1; done_ $?
# 037 rank 1's DataLoader worker dies with SIGBUS
start 037
WORKERS=2 FAULT=worker_sigbus FRANK=1 LOGFMT=logging $TR --nproc-per-node 2 --master-port 29637 $T > $R/037/console.log 2>&1; done_ $?
# 038 rank 2 calls broadcast where others all_reduce (no debug mode)
start 038
FAULT=mismatch_op FRANK=2 FSTEP=3 PG_TIMEOUT=10 $TR --nproc-per-node 3 --master-port 29638 $T > $R/038/console.log 2>&1; done_ $?
# 046 rank 3 under RLIMIT_AS 3G: CPU allocator fails during evaluation
start 046
FAULT=oom_as FRANK=3 FPHASE=eval $TR --nproc-per-node 4 --master-port 29646 $T > $R/046/console.log 2>&1; done_ $?
# 047 rank 0 assertion at the first step
start 047
FAULT=assert FRANK=0 FSTEP=1 LOGFMT=logging_norank $TR --nproc-per-node 2 --master-port 29647 $T > $R/047/console.log 2>&1; done_ $?
# 048 mp.spawn: rank 1 mixes meta and cpu tensors at first step
start 048
LAUNCH=spawn NPROC=2 MASTER_PORT=29648 FAULT=device FRANK=1 FSTEP=1 $PY $T > $R/048/console.log 2>&1; done_ $?
# 050 mp.spawn 3 ranks, collective size mismatch without debug mode
start 050
LAUNCH=spawn NPROC=3 MASTER_PORT=29650 FAULT=mismatch FRANK=1 FSTEP=3 PG_TIMEOUT=10 LOGFMT=json $PY $T > $R/050/console.log 2>&1; done_ $?
# 026 Lightning ddp (2 procs): KeyError in validation_step on rank 1
start 026
FAULT=val_keyerror FRANK=1 MASTER_PORT=29626 $PY /work/blind/r61/gen/lit.py > $R/026/console.log 2>&1; done_ $?
