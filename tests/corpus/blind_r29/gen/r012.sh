source /work/blind/r29/gen/lib.sh; mk 012; cd $RAW/012
# checkpoints to a 2M tmpfs: third save (step 450) runs out of space on rank 0; asctime; per-rank log dir
mkdir -p ckpt; mountpoint -q ckpt || mount -t tmpfs -o size=2M tmpfs $RAW/012/ckpt
LOGFMT=asctime EPOCHS=3 STEPS=200 CKPT_EVERY=150 LOG_EVERY=2 CKPT_DIR=$RAW/012/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35120 --log-dir $RAW/012/logs --redirects 3 $T > launcher.log 2>&1; echo "rc=$?" > rc
df -h ckpt > df.txt; umount $RAW/012/ckpt
mkdir -p $RUNS/012/logs && cp -r logs/* $RUNS/012/logs/ && cp launcher.log $RUNS/012/logs/
