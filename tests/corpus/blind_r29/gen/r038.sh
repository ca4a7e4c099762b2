source /work/blind/r29/gen/lib.sh; mk 038; cd $RAW/038
# HEALTHY: 2 torchrun agents (nnodes=2), bracket logs; both node logs in a dir
export LOGFMT=bracket HEALTHY_NOISE=1 EPOCHS=3 STEPS=300 LOG_EVERY=3 CKPT_DIR=$RAW/038/ckpt
timeout 170 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 35380 $T > node0.log 2>&1 &
A=$!
timeout 170 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 35380 $T > node1.log 2>&1
echo "rc1=$?" > rc; wait $A; echo "rc0=$?" >> rc
mkdir -p $RUNS/038/logs; cp node0.log node1.log $RUNS/038/logs/
