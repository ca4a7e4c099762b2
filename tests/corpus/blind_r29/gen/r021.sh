source /work/blind/r29/gen/lib.sh; mk 021; cd $RAW/021
# rank 1 runs with nofile=128 and leaks a file handle per step from step 900 -> EMFILE; bracket logs; last 300 lines
LOGLEVEL=DEBUG LOGFMT=bracket FAULT=emfile FAULT_RANK=1 FAULT_STEP=900 EPOCHS=3 STEPS=400 LOG_EVERY=3 CKPT_DIR=$RAW/021/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35210 $T > console.log 2>&1; echo "rc=$?" > rc
tail -n 300 console.log > $RUNS/021/last300.log
