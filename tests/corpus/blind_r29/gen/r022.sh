source /work/blind/r29/gen/lib.sh; mk 022; cd $RAW/022
# prep: per-rank checkpoints at step 150; then rank 3's file is truncated (torn copy); resumed job fails loading on rank 3
CKPT_ALL_RANKS=1 EPOCHS=1 STEPS=150 CKPT_EVERY=150 LOG_EVERY=50 CKPT_DIR=$RAW/022/ckpt timeout 120 $TR --nproc-per-node 4 --master-port 35220 $T > prep.log 2>&1
F=$RAW/022/ckpt/step_000150/rank3.pt; S=$(stat -c %s $F); truncate -s $((S*6/10)) $F
LOGFMT=iso RESUME="$RAW/022/ckpt/step_000150/rank{rank}.pt" CKPT_ALL_RANKS=1 EPOCHS=3 STEPS=400 LOG_EVERY=3 CKPT_DIR=$RAW/022/ckpt \
  timeout 170 $TR --nproc-per-node 4 --master-port 35221 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/022/console.log
