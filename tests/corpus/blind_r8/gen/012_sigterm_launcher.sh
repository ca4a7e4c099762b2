#!/bin/bash
R=/work/blind/r8/runs/012_sigterm_launcher; rm -rf $R; mkdir -p $R /work/blind/r8/meta/012
cd /work/blind/r8/meta/012; export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 --master-port 29912 \
  /work/blind/r8/gen/012_sigterm_launcher.py > $R/job.log 2>&1 &
T=$!
sleep 22
# the torchrun launcher process (child of timeout)
L=$(pgrep -P $T -f "bin/torchrun" | head -1)
echo "killing torchrun pid $L" > /work/blind/r8/meta/012.rc
kill -TERM $L
wait $T; echo "rc=$?" >> /work/blind/r8/meta/012.rc
