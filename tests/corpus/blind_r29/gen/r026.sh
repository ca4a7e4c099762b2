source /work/blind/r29/gen/lib.sh; mk 026; cd $RAW/026
# async checkpoint writer of rank 0 deadlocks at the step-600 save (lock never released); at step 800 rank 0 waits on it forever, others time out at the barrier
ASYNC_CKPT=1 FAULT=writer_hang FAULT_RANK=0 FAULT_STEP=600 EPOCHS=3 STEPS=400 CKPT_EVERY=200 LOG_EVERY=4 PG_TIMEOUT=30 CKPT_DIR=$RAW/026/ckpt \
  timeout 170 $TR --nproc-per-node 4 --master-port 35260 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/026/console.log
