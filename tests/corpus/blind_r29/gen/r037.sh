source /work/blind/r29/gen/lib.sh; mk 037; cd $RAW/037
# HEALTHY: epoch logs, last 300 lines only, async checkpoints
LOGFMT=epoch HEALTHY_NOISE=1 ASYNC_CKPT=1 EPOCHS=3 STEPS=400 LOG_EVERY=2 CKPT_EVERY=200 CKPT_DIR=$RAW/037/ckpt \
  timeout 170 $TR --nproc-per-node 4 --master-port 35370 $T > console.log 2>&1; echo "rc=$?" > rc
tail -n 300 console.log > $RUNS/037/last300.log
