source /work/blind/r29/gen/lib.sh; mk 039; cd $RAW/039
# every rank writes its own checkpoint shard (pickle); rank 1's shard dir is a 1.5M tmpfs -> ENOSPC on rank 1 at the 2nd save; epoch logs; --log-dir dir
mkdir -p ckpt ckpt_r1; mountpoint -q ckpt_r1 || mount -t tmpfs -o size=1500k tmpfs $RAW/039/ckpt_r1
LOGFMT=epoch CKPT_FORMAT=pickle CKPT_ALL_RANKS=1 CKPT_DIR_RANK1=$RAW/039/ckpt_r1 EPOCHS=3 STEPS=400 CKPT_EVERY=350 LOG_EVERY=3 CKPT_DIR=$RAW/039/ckpt \
  timeout 170 $TR --nproc-per-node 4 --master-port 35390 --log-dir $RAW/039/logs --tee 3 $T > console.log 2>&1; echo "rc=$?" > rc
df -h ckpt_r1 > df.txt; umount $RAW/039/ckpt_r1
mkdir -p $RUNS/039/rank_logs; for r in 0 1 2 3; do cat logs/*/attempt_0/$r/stdout.log logs/*/attempt_0/$r/stderr.log > $RUNS/039/rank_logs/rank$r.log; done
