#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 028_2node_emfile_low_ulimit
python $R/gen/mkdata.py data 4 --n 4000 --side
C="--nnodes 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31280 --rdzv-id job028 --local-addr 127.0.0.1"
TA="$T --data data --steps 200 --log-every 10 --fault fd_leak"
onnode ml-cpu-101 torchrun $C --nproc-per-node 3 $TA > $RUN/ml-cpu-101.log 2>&1 &
sleep 2
# node 2 comes up with the distro default soft limit
onnode ml-cpu-102 sh -c "ulimit -n 512; echo \"open files limit: \$(ulimit -n)\"; exec torchrun $C --nproc-per-node 1 $TA" > $RUN/ml-cpu-102.log 2>&1
wait
