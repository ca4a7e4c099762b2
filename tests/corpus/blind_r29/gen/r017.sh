source /work/blind/r29/gen/lib.sh; mk 017; cd $RAW/017
# metrics-uploader thread on rank 3 dies (TypeError: Tensor not JSON serializable); main thread notices and raises; json logs
LOGFMT=json FAULT=thread_exc FAULT_RANK=3 FAULT_STEP=1040 EPOCHS=3 STEPS=400 LOG_EVERY=4 CKPT_DIR=$RAW/017/ckpt TORCH_CPP_LOG_LEVEL=INFO \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35170 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/017/console.log
