source /work/blind/r29/gen/lib.sh; mk 004; cd $RAW/004
# inf weight on rank 1 -> non-finite loss detected and raised; epoch-seconds logs; last 300 lines only
LOGFMT=epoch FAULT=nan_raise FAULT_RANK=1 FAULT_STEP=1103 EPOCHS=3 STEPS=400 LOG_EVERY=2 CKPT_DIR=$RAW/004/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35040 $T > console.log 2>&1; echo "rc=$?" > rc
tail -n 300 console.log > $RUNS/004/tail300.log
