source /work/blind/r64/gen/common.sh
c047(){ w 047; NO_DDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL FAULT=mismatch FAULT_RANK=2 FAULT_STEP=3 TMO=15 timeout 120 $TR --nproc-per-node 3 --master-port 29747 --tee 3 $G/train.py > $R/047/console.log 2>&1; echo "047 rc=$?"; }
c048(){ w 048; FAULT=uneven SKIP_FINAL=1 FAULT_RANK=0 FAULT_STEP=11 STEPS=20 TMO=15 LOGFMT=prefix timeout 120 $TR --nproc-per-node 2 --master-port 29748 $G/train.py > $R/048/console.log 2>&1; echo "048 rc=$?"; }
c027(){ w 027; mkdir -p $W/ckpt/run27; mount --bind $W/ckpt $W/ckpt; mount -o remount,ro,bind $W/ckpt
  CKPT_EVERY=5 STEPS=20 CKPT_DIR=$W/ckpt/run27 LOGFMT=logging timeout 120 $TR --nproc-per-node 2 --master-port 29727 $G/train.py > $R/027/console.log 2>&1; echo "027 rc=$?"; umount $W/ckpt; }
c049(){ w 049; mkdir -p $W/ckpt; mount -t tmpfs -o size=256k tmpfs $W/ckpt; CKPT_FILEOBJ=1 WIDTH=2048 STEPS=30 CKPT_EVERY=10 CKPT_DIR=$W/ckpt TMO=20 timeout 120 $TR --nproc-per-node 2 --master-port 29749 $G/train.py > $R/049/console.log 2>&1; echo "049 rc=$?"; umount $W/ckpt; }
for r in "$@"; do c$r; done
