source /work/blind/r29/gen/lib.sh; mk 016; cd $RAW/016
# a DataLoader worker of rank 2 gets SIGKILL (real kill of the worker process) at sample 12000; asctime; console
LOGFMT=asctime NUM_WORKERS=2 FAULT=worker_kill FAULT_RANK=2 FAULT_STEP=12000 EPOCHS=2 STEPS=400 LOG_EVERY=2 CKPT_DIR=$RAW/016/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35160 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/016/console.log
