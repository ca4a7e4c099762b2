#!/bin/bash
# runs 041, 042, 045: partial hand-overs and a failure only on the restart attempt
source /work/blind/r53/set/gen/lib.sh
export GLOO_TIMEOUT=15 STEPS=20
# 041 rank 2 blocked on a FIFO, print style; only the last 90 console lines are handed over (tail.log)
STYLE=print MODE=hang_fifo FIFO=/tmp/r53fx/ctl.fifo CULPRIT=2 FSTEP=6 tr_run 041 4 29641
tail -n 90 $SET/runs/041/console.log > $SET/runs/041/tail.log
# 042 rank 3 raises; only rank 0's stderr from the --log-dir tree is handed over
STYLE=log MODE=exc CULPRIT=3 FSTEP=5 tr_run 042 4 29642 --log-dir logs --redirects 3
cp $(find $SET/runs/042/logs -path "*attempt_0/0/stderr.log") $SET/runs/042/rank0_stderr.log
# 045 attempt 0: transient ConnectionResetError on rank 2 -> restart; attempt 1: rank 1 resumes from a torn checkpoint
ATTEMPT_PREFIX=1 STYLE=log MODE=restart_ckpt TRANSIENT_RANK=2 CULPRIT=1 FSTEP=4 CKPT=/tmp/r53fx/good.pt BADCKPT=/tmp/r53fx/torn.pt tr_run 045 4 29645 --max-restarts=1
# 046 (run by hand before this batch, same helper): ATTEMPT_PREFIX=1 STYLE=print MODE=transient CULPRIT=2 FSTEP=4,
#     torchrun --nproc_per_node=4 --max-restarts=1 -> attempt 0 fails on rank 2, attempt 1 completes (healthy)
# 047 --max-restarts=2 with per-attempt store prefix: rank 1 raises the same KeyError on every attempt
ATTEMPT_PREFIX=1 STYLE=json MODE=keyerror CULPRIT=1 FSTEP=4 tr_run 047 3 29647 --max-restarts=2
# 010/037/044 first attempts used TORCH_DISTRIBUTED_DEBUG=DETAIL: every rank SIGSEGVs at the first DDP collective
# on this torch build (no class fits), so they were deleted and redone by hand with the same helper:
#   STYLE=log MODE=mismatch_shape CULPRIT=1 FSTEP=3 tr_run 044 3 29654            (no DETAIL)
#   TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=INFO NCCL_DEBUG=INFO STYLE=print tr_run 037 3 29657
# 022 (batch2) was deleted from the set: its restart attempt failed in gloo connectFullMesh (stale store keys) instead of
#     completing; 046 is the healthy elastic restart that replaced it.
# 048 healthy: rank 0 saves a final checkpoint to a writable dir, JSON lines
STYLE=json MODE=save_full SAVE_DIR=/tmp/r53ok tr_run 048 3 29648
