source /work/blind/r29/gen/lib.sh; mk 042; cd $RAW/042
# CPU fp16 autocast + GradScaler; from step 800 rank 1 multiplies its logits by 3e4 (temperature typo) -> fp16 overflow every step, scale halves each step until the script's min_loss_scale check raises (on all ranks)
AMP=fp16 FAULT=fp16_overflow FAULT_RANK=1 FAULT_STEP=800 LOGFMT=bracket EPOCHS=3 STEPS=400 LOG_EVERY=4 CKPT_DIR=$RAW/042/ckpt \
  timeout 170 $TR --nproc-per-node 4 --master-port 35420 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/042/console.log
