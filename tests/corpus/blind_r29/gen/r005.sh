source /work/blind/r29/gen/lib.sh; mk 005; cd $RAW/005
# inf weight on rank 2 -> loss nan only printed; plain logging (no rank/time) but torchrun --tee prefixes; run completes
LOGFMT=plain FAULT=nan_print FAULT_RANK=2 FAULT_STEP=650 EPOCHS=3 STEPS=300 LOG_EVERY=5 CKPT_DIR=$RAW/005/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35050 --log-dir $RAW/005/logs --tee 3 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/005/console.log
