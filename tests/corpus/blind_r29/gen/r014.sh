source /work/blind/r29/gen/lib.sh; mk 014; cd $RAW/014
# rank 3's shard list for the last epoch names a shard that is not there -> FileNotFoundError at epoch 3; bracket logs
$PY /work/blind/r29/gen/mkdata.py $RAW/014/data 12 3200
LOGFMT=bracket FAULT=missing_shard FAULT_RANK=3 DATA_DIR=$RAW/014/data EPOCHS=3 STEPS=300 LOG_EVERY=3 CKPT_EVERY=100000 CKPT_DIR=$RAW/014/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35140 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/014/console.log
