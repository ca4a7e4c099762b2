#!/bin/bash
# three torchrun agents --nnodes=3 --nproc_per_node=1, c10d rendezvous; node1 has the stale extension
set -u; G=/work/blind/r22/gen; W=/work/blind/r22/work; D=/work/blind/r22/runs/018_stale_extension_node1; rm -rf $D; mkdir -p $D; cd $D
$G/build_018.sh
export OMP_NUM_THREADS=1
for n in 0 1 2; do P=$W/ext_good; [ $n = 1 ] && P=$W/ext_bad
  PYTHONPATH=$P timeout 150 /work/blind/venv/bin/torchrun --nnodes=3 --nproc_per_node=1 --rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:27180 --rdzv_id=job018 $G/train_018.py > node$n.log 2>&1 &
  sleep 1
done
wait; echo done
