cd /work/repro && rm -rf a && mkdir a && /work/tvenv/bin/torchrun --nproc-per-node 4 --master-port 23101 --log-dir a/logs --tee 3 fpe.py > a/console.log 2>&1; echo rc=$?
