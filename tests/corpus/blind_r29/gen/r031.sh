source /work/blind/r29/gen/lib.sh; mk 031; cd $RAW/031
# another process already listens on the master port 35310; torchrun's store cannot bind
$PY -c "import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0',35310)); s.listen(); time.sleep(60)" &
HP=$!; sleep 1
LOGFMT=iso EPOCHS=3 STEPS=400 timeout 120 $TR --nnodes 1 --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 35310 $T > console.log 2>&1; echo "rc=$?" > rc
kill $HP
cp console.log $RUNS/031/console.log
