source /work/blind/r29/gen/lib.sh; mk 024; cd $RAW/024
# rank 0 fetches the vocab from the hub at start-up; DNS fails (no internet); json logs; console
LOGFMT=json VOCAB_URL=https://huggingface.co/google-bert/bert-base-uncased/resolve/main/vocab.txt EPOCHS=3 STEPS=400 PG_TIMEOUT=60 CKPT_DIR=$RAW/024/ckpt \
  timeout 170 $TR --nproc-per-node 4 --master-port 35240 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/024/console.log
