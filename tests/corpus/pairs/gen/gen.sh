#!/bin/bash
# Runs train.py three times under torchrun (2 ranks, gloo, CPU): good.log and good2.log healthy, bad.log with rank 1's corrupt record.
# Needs a CPU PyTorch; TORCHRUN points at its torchrun.
set -u
cd "$(dirname "$0")/.."
TORCHRUN=${TORCHRUN:-torchrun}
mkdir -p /tmp/runs
RUN_ID=$(date +%s%N | sha1sum | cut -c1-12) OMP_NUM_THREADS=1 timeout 120 "$TORCHRUN" --nproc-per-node 2 \
  --rdzv-backend c10d --rdzv-endpoint localhost:29871 gen/train.py > good.log 2>&1
echo "good: exit $?"
RUN_ID=$(date +%s%N | sha1sum | cut -c1-12) OMP_NUM_THREADS=1 timeout 120 "$TORCHRUN" --nproc-per-node 2 \
  --rdzv-backend c10d --rdzv-endpoint localhost:29873 gen/train.py > good2.log 2>&1
echo "good2: exit $?"
RUN_ID=$(date +%s%N | sha1sum | cut -c1-12) PAIR_BAD=1 OMP_NUM_THREADS=1 timeout 120 "$TORCHRUN" --nproc-per-node 2 \
  --rdzv-backend c10d --rdzv-endpoint localhost:29872 gen/train.py > bad.log 2>&1
echo "bad: exit $?"
