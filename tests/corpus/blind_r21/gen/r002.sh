#!/bin/bash
cd /work/blind/r21/work
source /work/blind/venv/bin/activate
D=/work/blind/r21/runs/002_pretrain_2x; rm -rf $D; mkdir -p $D
rm -f oomwatch.log
( for i in $(seq 1 300); do for p in $(pgrep -f gen/train.py); do r=$(awk '/VmRSS/{print $2}' /proc/$p/status 2>/dev/null); if [ -n "$r" ] && [ "$r" -gt 2200000 ]; then kill -9 $p; echo "killed $p rss=$r" >> /work/blind/r21/work/oomwatch.log; fi; done; sleep 0.2; done ) &
W=$!
FMODE=oomleak FRANK=0 FSTEP=15 STEPS=40 STEP_SLEEP=0.3 PG_TIMEOUT=30 LOGFMT=custom timeout 150 torchrun --nnodes 1 --nproc-per-node 2 --master-port 26102 --log-dir $D/torchrun_logs --redirects 3 /work/blind/r21/gen/train.py > $D/launcher.out 2>&1
echo rc=$?
kill $W
