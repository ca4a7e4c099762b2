source /work/blind/r29/gen/lib.sh; mk 007; cd $RAW/007; rm -f pid3
# rank 3 SIGKILLed from outside (kill -9 by an operator/agent) mid-training; bracket logs; console
LOGFMT=bracket FAULT=sigkill_ext FAULT_RANK=3 FAULT_STEP=800 PIDFILE=$RAW/007/pid3 EPOCHS=3 STEPS=400 LOG_EVERY=3 CKPT_DIR=$RAW/007/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35070 $T > console.log 2>&1 &
TP=$!
for i in $(seq 1 600); do [ -s pid3 ] && break; sleep 0.2; done
sleep 1.3; P=$(cat pid3); echo "killing $P" > killed; kill -9 $P
wait $TP; echo "rc=$?" > rc
cp console.log $RUNS/007/console.log
