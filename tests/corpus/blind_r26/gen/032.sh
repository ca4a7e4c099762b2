#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 032_healthy_mpspawn_spike_recovers
python $R/gen/mkdata.py data 4 --n 4000
cd $WD; MASTER_PORT=31320 NPROCS=4 OMP_NUM_THREADS=1 python $R/gen/spawn_main.py --data data --steps 240 --log-every 10 --fault spike_batch --fault-rank -1 --fault-step 120 > $RUN/train.log 2>&1
echo exit $?
