#!/usr/bin/env bash
# Usage: gen/run_cuda.sh NAME MODE [TARGET]   (from tests/corpus/made_r16): torchrun, 4 gloo workers, CPU-only torch
set -u
TORCHRUN=${TORCHRUN:-/work/blind/venv/bin/torchrun}
name=$1 mode=$2 target=${3:-2}
gen=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
mkdir -p "runs/$name"
(cd "$work" && MODE=$mode TARGET=$target "$TORCHRUN" --nproc-per-node 4 --master-port $((29600 + RANDOM % 300)) \
  "$gen/cuda_rank.py") > "runs/$name/console.log" 2>&1
echo "$name rc=$?"
rm -rf "$work"
