source /work/blind/r29/gen/lib.sh; mk 020; cd $RAW/020
# manual grad all-reduce (no DDP); rank 2 does an extra all_reduce of a 3-element stats tensor at step 980 -> DETAIL mismatch check; iso
TORCH_DISTRIBUTED_DEBUG=DETAIL MANUAL_DDP=1 FAULT=coll_mismatch FAULT_RANK=2 FAULT_STEP=980 EPOCHS=3 STEPS=400 LOG_EVERY=3 PG_TIMEOUT=40 CKPT_DIR=$RAW/020/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35201 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/020/console.log
