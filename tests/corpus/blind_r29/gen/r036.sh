source /work/blind/r29/gen/lib.sh; mk 036; cd $RAW/036
# HEALTHY: DataLoader workers, torchrun --log-dir --tee, asctime logs, handed over as tar.gz
$PY /work/blind/r29/gen/mkdata.py $RAW/036/data 8 4800
LOGFMT=asctime HEALTHY_NOISE=1 NUM_WORKERS=2 DATA_DIR=$RAW/036/data EPOCHS=2 STEPS=300 LOG_EVERY=3 CKPT_EVERY=250 CKPT_DIR=$RAW/036/ckpt TQDM_ALL=1 \
  timeout 170 $TR --nproc-per-node 4 --master-port 35360 --log-dir $RAW/036/logs --tee 3 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log logs/console.log; tar czf $RUNS/036/job_logs.tar.gz logs
