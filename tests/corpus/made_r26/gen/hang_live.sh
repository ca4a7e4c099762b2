#!/bin/bash
# A hung job's console copied while it hangs: torchrun, 3 workers, rank 1 blocks after step 40 (hang_live.py);
# after 60 s the console so far is the paste, then the job is killed. Usage: hang_live.sh OUTDIR (port 33120).
set -u
out=$1; mkdir -p "$out"; here=$(cd "$(dirname "$0")" && pwd)
torchrun --standalone --nproc-per-node 3 --rdzv-endpoint 127.0.0.1:33120 "$here/hang_live.py" > "$out/.console" 2>&1 &
job=$!
sleep 60
cp "$out/.console" "$out/console_live.log"; rm -f "$out/.console"
kill -TERM $job; sleep 5; pkill -9 -f "$here/hang_live.py"; wait $job 2>/dev/null
echo done
