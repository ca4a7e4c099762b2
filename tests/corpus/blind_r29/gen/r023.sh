source /work/blind/r29/gen/lib.sh; mk 023; cd $RAW/023
# prep: checkpoint saved with hidden=96; resumed with hidden=128 -> rank 0 load_state_dict size mismatch; asctime; --log-dir dir
HIDDEN=96 EPOCHS=1 STEPS=150 CKPT_EVERY=150 LOG_EVERY=50 CKPT_DIR=$RAW/023/ckpt timeout 120 $TR --nproc-per-node 4 --master-port 35230 $T > prep.log 2>&1
LOGFMT=asctime RESUME="$RAW/023/ckpt/step_000150/model.pt" EPOCHS=3 STEPS=400 LOG_EVERY=3 CKPT_DIR=$RAW/023/ckpt2 \
  timeout 170 $TR --nproc-per-node 4 --master-port 35231 --log-dir $RAW/023/logs --redirects 3 $T > launcher.log 2>&1; echo "rc=$?" > rc
mkdir -p $RUNS/023/run_logs && cp -r logs $RUNS/023/run_logs/ && cp launcher.log $RUNS/023/run_logs/
