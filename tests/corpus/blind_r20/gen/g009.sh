#!/bin/bash
# master port already bound by a leftover process; rank 0 hosts the TCPStore; plain bash loop, per-rank files
source /work/blind/r20/gen/common.sh
D=$R/009_loop_launch_b; rm -rf $D; mkdir -p $D; cd $W
# leftover from previous job still holding the port (a stale tensorboard-like server)
$PY -c "import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0',25019)); s.listen(16); time.sleep(120)" &
SQ=$!; sleep 1
export MASTER_ADDR=127.0.0.1 MASTER_PORT=25019 WORLD_SIZE=3 NSTEPS=30 FMT=tail PG_TIMEOUT=20
for r in 0 1 2; do RANK=$r LOCAL_RANK=$r nohup $PY $G/train.py > $D/train.$r.out 2>&1 & done
wait %2 %3 %4 2>/dev/null; sleep 1
for j in $(jobs -p); do [ $j != $SQ ] && wait $j; done
kill $SQ
echo done
