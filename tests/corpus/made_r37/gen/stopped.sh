#!/bin/bash
# A job stopped from outside by timeout(1): after it hung (rank HANG_RANK deadlocked at step 20, ~4 s in), or while
# it was still stepping (the near miss). Usage: stopped.sh OUTDIR MODE PORT
#   MODE=term   torchrun, 3 workers, --tee 3; rank 1 deadlocks; `timeout -s TERM 48` stops the agent ~44 s later
#   MODE=busy   the same with no deadlock; `timeout -s TERM 20` stops it mid-training
# Needs torch (CPU) and a free PORT.
set -u
out=$1; mode=$2; port=$3
mkdir -p "$out"; here=$(cd "$(dirname "$0")" && pwd)
if [ "$mode" = term ]; then hang=1; limit=48; else hang=-1; limit=20; fi
HANG_RANK=$hang timeout -s TERM $limit torchrun --nproc-per-node 3 --master-port "$port" --tee 3 "$here/train_hang.py" \
  > "$out/console.log" 2>&1
echo "exit: $?"
