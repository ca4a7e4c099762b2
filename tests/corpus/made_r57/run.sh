#!/bin/bash
# Make the runs: 001 (3 ranks, rank 2 hangs), 002 (4 ranks, rank 1 hangs), 003 (3 ranks, every rank raises after
# its collective). Worker output goes to torchrun's --log-dir, which is not kept: console.log holds the launcher only.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TR=${TORCHRUN:-torchrun}
one() {  # name nproc mode bad
  rm -rf "$HERE/$1" /tmp/made_r57_$1; mkdir -p "$HERE/$1"
  OUT=$HERE/$1 MODE=$3 BAD=$4 AT=3 TORCH_FR_BUFFER_SIZE=2000 timeout 180 $TR --nproc-per-node "$2" \
    --master-port $((29870 + ${1#00})) --log-dir /tmp/made_r57_$1 --redirects 3 "$HERE/gen.py" > "$HERE/$1/console.log" 2>&1
}
one 001 3 hang 2
one 002 4 hang 1
one 003 3 raise 0
