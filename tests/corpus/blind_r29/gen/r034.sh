source /work/blind/r29/gen/lib.sh; mk 034; cd $RAW/034
# HEALTHY: noisy iso logs, caught-and-logged JSONDecodeError tracebacks (sidecar), UserWarning, C++ INFO logs, completes
HEALTHY_NOISE=1 TORCH_CPP_LOG_LEVEL=INFO LOGLEVEL=DEBUG EPOCHS=3 STEPS=400 LOG_EVERY=2 CKPT_DIR=$RAW/034/ckpt \
  timeout 170 $TR --nproc-per-node 4 --master-port 35340 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/034/console.log
