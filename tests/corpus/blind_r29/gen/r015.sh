source /work/blind/r29/gen/lib.sh; mk 015; cd $RAW/015
# a truncated JSON line deep inside rank 1's shard (train-00005) -> JSONDecodeError in a DataLoader worker; iso; --log-dir tar.gz
$PY /work/blind/r29/gen/mkdata.py $RAW/015/data 8 4800
$PY - <<'PY'
p = "/work/blind/r29/gen/raw/015/data/train-00005-of-00008.jsonl"
L = open(p).readlines(); L[4100] = L[4100][:23] + "\n"; open(p, "w").writelines(L)
PY
NUM_WORKERS=2 FAULT=none DATA_DIR=$RAW/015/data EPOCHS=2 STEPS=300 LOG_EVERY=3 CKPT_EVERY=250 CKPT_DIR=$RAW/015/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35150 --log-dir $RAW/015/logs --tee 3 $T > console.log 2>&1; echo "rc=$?" > rc
tar czf $RUNS/015/torchrun_logs.tar.gz logs
