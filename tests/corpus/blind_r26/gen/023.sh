#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 023_srun_interactive_hub_download
python $R/gen/mkdata.py data 4 --n 1000
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31230 OMP_NUM_THREADS=1
srun -n 4 --overcommit --label --kill-on-bad-exit=1 -J ft-from-hub python $T --data data --steps 100 --log-every 10 \
  --pretrained-url https://download.pytorch.org/models/tinymlp_in16_h64-3f2a1c9e.pth > $RUN/srun_console.txt 2>&1
echo exit $?
