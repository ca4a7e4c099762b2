source /work/blind/r29/gen/lib.sh; mk 006; cd $RAW/006
# real deadlock (non-reentrant lock taken twice) on rank 1; others time out in gloo allreduce (30s); C++ INFO logging
TORCH_CPP_LOG_LEVEL=INFO LOGLEVEL=DEBUG FAULT=hang FAULT_RANK=1 FAULT_STEP=777 EPOCHS=3 STEPS=300 LOG_EVERY=5 PG_TIMEOUT=30 CKPT_DIR=$RAW/006/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35060 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/006/console.log
