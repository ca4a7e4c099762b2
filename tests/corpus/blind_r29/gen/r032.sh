source /work/blind/r29/gen/lib.sh; mk 032; cd $RAW/032
# 2-node c10d rendezvous, only node 0 ever starts (node 1's agent never launched); join_timeout 45s
LOGFMT=iso EPOCHS=3 STEPS=400 timeout 150 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:35320 --rdzv-id job-7731 --rdzv-conf join_timeout=45 $T > node0.log 2>&1; echo "rc=$?" > rc
cp node0.log $RUNS/032/node0.log
