#!/bin/bash
# torchrun, 4 workers, --log-dir with --redirects 3: worker output goes only to per-rank files
set -u
RUN=/work/blind/r2/runs/003_silent_hang_r3
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1
/work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 29613 --log-dir $RUN/logs --redirects 3 \
    /work/blind/r2/gen/003_silent_hang_r3.py > console.log 2>&1
echo "exit code $?"
