#!/usr/bin/env bash
# restarts
source "$(dirname "$0")/common.sh"
r029() { newrun 029; rm -f $W/ck29.pt; CKPT=$W/ck29.pt SCEN=restart_torn TARGET=0 AT=4 FMT=json timeout 150 $TR --nproc-per-node 3 --max-restarts 1 --standalone --log-dir logs --redirects 3 --tee 3 $G/worker.py > console.log 2>&1; tar czf handover.tar.gz console.log logs; rm -rf console.log logs; }
r030() { newrun 030; MANIFEST_URL=http://127.0.0.1:9/datasets/c4/manifest.json SCEN=restart_ok TARGET=1 FMT=logging timeout 150 $TR --nproc-per-node 2 --max-restarts 2 --standalone $G/worker.py > console.log 2>&1; }
"$@"
