#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 020_2node_ext_undefined_symbol
python $R/gen/mkdata.py data 4 --n 1000
SUF=.cpython-311-x86_64-linux-gnu.so
for n in 01 02; do mkdir -p $WD/envs/node$n/lib/python3.11/site-packages; done
cp $R/gen/ext/good/fastops$SUF $WD/envs/node01/lib/python3.11/site-packages/
cp $R/gen/ext/new/fastops$SUF  $WD/envs/node02/lib/python3.11/site-packages/   # node 2 image has the build made against a newer libtorch
C="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31200 --rdzv-id job020 --local-addr 127.0.0.1"
onnode gpu-c12-01 torchrun $C $T --data data --steps 100 --timeout 60 --fault import_ext --fault-arg $WD/envs/node01/lib/python3.11/site-packages > $RUN/gpu-c12-01.out 2>&1 &
sleep 2
onnode gpu-c12-02 torchrun $C $T --data data --steps 100 --timeout 60 --fault import_ext --fault-arg $WD/envs/node02/lib/python3.11/site-packages > $RUN/gpu-c12-02.out 2>&1
wait
