#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 012_tr_resume_size_mismatch
python $R/gen/mkdata.py data 4 --n 2000
mkdir -p ckpt
# earlier job (hidden=64) that wrote the checkpoint; its output is not part of the paste
torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31120 --rdzv-id prep012 \
  $T --data data --steps 40 --log-every 20 --ckpt-dir ckpt --ckpt-every 40 > prep.log 2>&1 || exit 1
# the resumed job with the widened model
torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31121 --rdzv-id job012 \
  --log-dir $RUN/torchelastic --tee 3 \
  $T --data data --steps 200 --hidden 96 --log-every 10 --resume-latest --ckpt-dir ckpt > $RUN/console.log 2>&1
echo exit $?
