#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 027_mpspawn_rank0_attributeerror
python $R/gen/mkdata.py data 4 --n 2000
cd $WD; MASTER_PORT=31270 NPROCS=4 OMP_NUM_THREADS=1 python $R/gen/spawn_main.py --data data --steps 200 --log-every 25 --log-style print --fault logger_none --fault-rank 0 > $RUN/stdout_stderr.txt 2>&1
echo exit $?
