#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 022_2node_small_devshm
python $R/gen/mkdata.py data 4 --n 8000
C="--nnodes 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31220 --rdzv-id job022 --local-addr 127.0.0.1"
TA="$T --data data --steps 200 --bs 256 --workers 2 --log-every 10"
onnode dgx-b07 torchrun $C --nproc-per-node 3 $TA > $RUN/dgx-b07.log 2>&1 &
sleep 2
# node 2's container was started with a 64 KiB /dev/shm (docker default is 64 MiB; a typo made it k)
unshare --uts --mount --propagation private sh -c "mount -t tmpfs -o size=64k shm /dev/shm; hostname dgx-b08; df -h /dev/shm; exec torchrun $C --nproc-per-node 1 $TA" > $RUN/dgx-b08.log 2>&1
wait
