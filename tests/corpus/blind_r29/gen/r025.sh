source /work/blind/r29/gen/lib.sh; mk 025; cd $RAW/025
# data pipeline bug from step 700 on all ranks: labels shuffled within the batch / remapped -> loss jumps from ~0 and stays high; run completes; iso; console
SEQ=1 FAULT=shuffle_labels FAULT_RANK=-1 FAULT_STEP=700 EPOCHS=3 STEPS=400 LOG_EVERY=4 CKPT_DIR=$RAW/025/ckpt \
  timeout 170 $TR --nproc-per-node 4 --master-port 35250 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/025/console.log
