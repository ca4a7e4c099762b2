#!/bin/bash
# Uneven shards: rank 1 has 2 chunks, the others 3. Rank 1 runs out of data after 20 steps,
# leaves the loop and goes to the final barrier/exit while ranks 0,2,3 are still inside DDP
# gradient allreduces for step 20.
. /work/blind/r15/gen/env.sh
R=009_bashloop_uneven_data_r1; D=$DATA/ds_009; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3
rm $D/rank1/chunk_002.npy
cd $RUNS/$R
cat > /tmp/blind_009_launch.sh <<LEOF
#!/bin/bash
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21109 WORLD_SIZE=4 OMP_NUM_THREADS=1
for r in 0 1 2 3; do
  RANK=\$r LOCAL_RANK=\$r $PY $GEN/train.py --data-dir $D --epochs 1 --log-every 5 --log-style print --pg-timeout 20 &
done
wait
echo "all ranks exited"
LEOF
timeout 120 bash /tmp/blind_009_launch.sh > console.log 2>&1
echo "rc=$?"
cp /tmp/blind_009_launch.sh $GEN/009_launch_generated.sh
