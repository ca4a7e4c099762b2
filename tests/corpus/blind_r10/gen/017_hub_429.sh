#!/bin/bash
R=/work/blind/r10/runs/017_hub_429; rm -rf $R; mkdir -p $R; cd $R
/work/blind/venv/bin/python /work/blind/r10/gen/017_hub_mirror.py 30917 2>/tmp/r10_017_mirror.log & MIRROR=$!
sleep 1
export OMP_NUM_THREADS=1 HUB_ENDPOINT=http://127.0.0.1:30917
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 30117 --tee 3 /work/blind/r10/gen/017_hub_429.py > $R/console.log 2>&1
echo "rc=$?"
kill $MIRROR
rm -rf $R/hub_cache
