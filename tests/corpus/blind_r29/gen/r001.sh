source /work/blind/r29/gen/lib.sh; mk 001; cd $RAW/001
# key error in training step, rank 2, late; iso logs; full combined console
FAULT=key_err FAULT_RANK=2 FAULT_STEP=1187 EPOCHS=3 STEPS=500 LOG_EVERY=3 CKPT_DIR=$RAW/001/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35010 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/001/console.log
