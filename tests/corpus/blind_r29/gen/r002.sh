source /work/blind/r29/gen/lib.sh; mk 002; cd $RAW/002
# eval loop ZeroDivisionError on rank 1; torchrun --log-dir --tee; hand over per-rank dir
LOGFMT=asctime FAULT=eval_exc FAULT_RANK=1 FAULT_STEP=900 EPOCHS=4 STEPS=250 LOG_EVERY=5 EVAL_EVERY=150 TQDM_ALL=1 CKPT_DIR=$RAW/002/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35020 --log-dir $RAW/002/logs --tee 3 $T > console.log 2>&1; echo "rc=$?" > rc
cp -r logs $RUNS/002/logs
