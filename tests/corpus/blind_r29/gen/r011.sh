source /work/blind/r29/gen/lib.sh; mk 011; cd $RAW/011
# rank 2 hits RLIMIT_AS (ulimit -v style) allocating a 1.5GB buffer -> CPU allocator failure; epoch logs; grep excerpt
LOGFMT=epoch FAULT=ulimit_memerr FAULT_RANK=2 FAULT_STEP=1130 EPOCHS=3 STEPS=400 LOG_EVERY=2 CKPT_DIR=$RAW/011/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35110 $T > console.log 2>&1; echo "rc=$?" > rc
grep -n -E -C 4 "error|Error|Traceback" console.log > $RUNS/011/grep_errors.txt
