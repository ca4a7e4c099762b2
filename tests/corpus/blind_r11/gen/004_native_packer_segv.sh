#!/bin/bash
# Two "nodes" (two torchrun agents, static rendezvous, --nnodes 2 --node-rank 0/1), 2 workers each.
# Each node's agent console goes to its own file, as the cluster's job wrapper collects it.
R=/work/blind/r11; RUN=$R/runs/004_native_packer_segv; S=$R/scratch/004
rm -rf $RUN $S && mkdir -p $RUN $S && cd $RUN
gcc -O2 -shared -fPIC -o $S/fastpack.so $R/gen/004_native_packer_segv.c
export OMP_NUM_THREADS=1 FASTPACK_SO=$S/fastpack.so
COMMON="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 31104"
FAKE_HOSTNAME=node-a timeout 90 /work/blind/venv/bin/torchrun $COMMON --node-rank 0 $R/gen/004_native_packer_segv.py > node-a.console.log 2>&1 &
FAKE_HOSTNAME=node-b timeout 90 /work/blind/venv/bin/torchrun $COMMON --node-rank 1 $R/gen/004_native_packer_segv.py > node-b.console.log 2>&1 &
wait
rm -rf $S
