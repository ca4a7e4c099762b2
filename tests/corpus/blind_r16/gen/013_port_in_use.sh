#!/bin/bash
# bash loop (all ranks to one terminal), 3 ranks; MASTER_PORT is already held by a leftover process
# (ranks 1,2 hang connecting; generator was run as `timeout 120 ./013_port_in_use.sh`, which killed them)
# (an old notebook's http server), so rank 0's TCPStore cannot bind.
NAME=013_port_in_use; source /work/blind/r16/gen/common.sh
$PY -m http.server 21013 --bind 127.0.0.1 >/dev/null 2>&1 & OLD=$!
sleep 1
(
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21013 WORLD_SIZE=3 STEPS=30 LOGFMT=logging
for r in 0 1 2; do RANK=$r LOCAL_RANK=$r $PY $TRAIN & done
wait
) > terminal.txt 2>&1
kill $OLD
