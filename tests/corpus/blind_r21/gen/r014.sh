#!/bin/bash
source /work/blind/venv/bin/activate
D=/work/blind/r21/runs/014_restart_after_crash; rm -rf $D; mkdir -p $D; cd $D
python3 -c "
import socket,time
s=socket.socket(); s.bind(('0.0.0.0',26414)); s.listen(64); time.sleep(90)" &
LP=$!
sleep 1
export MASTER_ADDR=127.0.0.1 MASTER_PORT=26414 WORLD_SIZE=3 STEPS=30 LOGFMT=json PG_TIMEOUT=20
for r in 0 1 2; do
  RANK=$r LOCAL_RANK=$r python /work/blind/r21/gen/train.py > rank$r.out 2> rank$r.err &
  eval p$r=$!
done
for r in 0 1 2; do eval wait \$p$r; echo "rank $r exit=$?" >> exit_codes.txt; done
kill $LP
