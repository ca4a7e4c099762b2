source /work/blind/r29/gen/lib.sh; mk 003; cd $RAW/003
# assertion on rank 3 only (short batch); JSON-structured logs; full console
LOGFMT=json FAULT=assert FAULT_RANK=3 FAULT_STEP=1020 EPOCHS=3 STEPS=400 LOG_EVERY=2 CKPT_DIR=$RAW/003/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35030 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/003/train_console.log
