#!/usr/bin/env bash
# Usage: gen/run.sh NAME WORLD TARGET SIZE [LOAD]   (from tests/corpus/made_r16; needs a CPU torch's torchrun)
# Runs torchrun with WORLD gloo workers resuming from per-rank checkpoints, rank TARGET's damaged (SIZE).
set -u
TORCHRUN=${TORCHRUN:-/work/blind/venv/bin/torchrun}
PY=$(dirname "$TORCHRUN")/python
name=$1 world=$2 target=$3 size=$4 load=${5:-path}
gen=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
mkdir -p "runs/$name"
(cd "$work" && "$PY" "$gen/make_ckpts.py" "$world" "$target" "$size" && \
  LOAD=$load "$TORCHRUN" --nproc-per-node "$world" --master-port $((29600 + RANDOM % 300)) "$gen/resume.py") \
  > "runs/$name/console.log" 2>&1
echo "$name rc=$?"
rm -rf "$work"
