#!/bin/bash
# Each rank loads the fused_ops extension from its own extension-build cache
# ($EXT/rank{r}/fused_ops). Rank 2's cache holds a stale build compiled against an older
# libtorch -> ImportError "undefined symbol: _ZN3c106detail14torchCheckFail..." on rank 2 only.
# Plain bash loop launcher, per-rank log files plus the launcher's console.
. /work/blind/r15/gen/env.sh
R=020_bashloop_ext_undefined_symbol_r2; D=$DATA/ds_020; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R/logs
$PY $GEN/make_data.py $D --ranks 4 --chunks 2
EXT=$D/ext_cache
for r in 0 1 2 3; do mkdir -p $EXT/rank$r/fused_ops; cp $GEN/ext/fused_ops_good.so $EXT/rank$r/fused_ops/fused_ops.cpython-311-x86_64-linux-gnu.so; done
cp $GEN/ext/fused_ops_stale.so $EXT/rank2/fused_ops/fused_ops.cpython-311-x86_64-linux-gnu.so
cd $RUNS/$R
cat > /tmp/blind_020_launch.sh <<LEOF
#!/bin/bash
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21120 WORLD_SIZE=4 OMP_NUM_THREADS=1
pids=()
for r in 0 1 2 3; do
  RANK=\$r LOCAL_RANK=\$r $PY $GEN/train.py --data-dir $D --ext-cache $EXT --log-every 5 --pg-timeout 20 > logs/rank\$r.log 2>&1 &
  pids+=(\$!)
  echo "launched rank \$r pid \${pids[-1]}"
done
for r in 0 1 2 3; do
  wait \${pids[\$r]}; rc=\$?
  echo "rank \$r exited with code \$rc"
done
LEOF
timeout 120 bash /tmp/blind_020_launch.sh > console.log 2>&1
echo "rc=$?"
cp /tmp/blind_020_launch.sh $GEN/020_launch_generated.sh
