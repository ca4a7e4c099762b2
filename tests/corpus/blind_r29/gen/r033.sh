source /work/blind/r29/gen/lib.sh; mk 033; cd $RAW/033; rm -f pid_agent1
# two torchrun agents (node 0: ranks 0-1, node 1: ranks 2-3); node 1 "dies": its agent and both workers SIGKILLed at once
export LOGFMT=asctime EPOCHS=3 STEPS=400 LOG_EVERY=4 CKPT_DIR=$RAW/033/ckpt PG_TIMEOUT=40
timeout 170 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 35330 $T > node0.log 2>&1 &
A0=$!
timeout 170 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 35330 $T > node1.log 2>&1 &
T1=$!
for i in $(seq 1 300); do grep -q "step 600/" node1.log 2>/dev/null && break; sleep 0.5; done
A1=$(pgrep -P $T1); W=$(pgrep -P $A1 | tr '\n' ' '); echo "agent1=$A1 workers=$W" > killed
kill -9 $A1 $W
wait $A0; echo "rc0=$?" > rc; wait $T1; echo "rc1=$?" >> rc
mkdir -p $RUNS/033/logs; cp node0.log node1.log $RUNS/033/logs/
