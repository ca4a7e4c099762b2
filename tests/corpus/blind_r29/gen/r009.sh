source /work/blind/r29/gen/lib.sh; mk 009; cd $RAW/009
# os.abort() on rank 1 (SIGABRT); JSON logs; console
LOGFMT=json FAULT=abort FAULT_RANK=1 FAULT_STEP=990 EPOCHS=3 STEPS=400 LOG_EVERY=3 CKPT_DIR=$RAW/009/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35090 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/009/console.log
