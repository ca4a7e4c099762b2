cd /work/repro && rm -rf b && mkdir b && /work/tvenv/bin/torchrun --nproc-per-node 4 --master-port 23102 nan.py > b/console.log 2>&1; echo rc=$?
